import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // probes PLATCTL_TEST_DATABASE_URL once: required under CI=true, else skipped with one line
    globalSetup: ['test/helpers/postgres-setup.ts'],
  },
});
