import { defineConfig } from 'vitest/config';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Two files at a time on the two-core machines here: most files wait on a loopback emulator,
    // a child CLI or Chromium, so this halves the wall time (400 s -> 240 s) with no test flaking.
    maxWorkers: 2,
    // probes PLATCTL_TEST_DATABASE_URL once: required under CI=true, else skipped with one line
    globalSetup: ['test/helpers/postgres-setup.ts'],
  },
});
