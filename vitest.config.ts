import { defineConfig } from 'vitest/config';

/**
 * The suites `npm test` leaves out and `npm run test:all` (CI) runs: the browser suites (they need
 * Debian's Chromium), the multi-process HA and sharding suites, and the ones that pack, install
 * and run the package as a user would (minutes of npm). docs/testing.md says what each needs.
 */
const SLOW = [
  'test/dashboard/page.test.ts',
  'test/dashboard/e2e-dashboard.test.ts',
  'test/dashboard/views.test.ts',
  'test/dashboard/e2e-pages.test.ts',
  'test/dashboard/e2e-list.test.ts',
  'test/dashboard/power.test.ts',
  'test/dashboard/graph.test.ts',
  'test/dashboard/a11y.test.ts',
  'test/dashboard/usage-view.test.ts',
  'test/dashboard/screenshots.test.ts',
  'test/emulator/docs-page.test.ts',
  'test/controller/ha-postgres.test.ts',
  'test/controller/shard-postgres.test.ts',
  'test/controller/e2e-ha.test.ts',
  'test/examples/ci.test.ts',
  'test/e2e/install.test.ts',
];
const all = process.env.PLATCTL_TEST_ALL === '1';

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    exclude: ['**/node_modules/**', ...(all ? [] : SLOW)],
    testTimeout: 30_000,
    hookTimeout: 30_000,
    pool: 'forks',
    // Two files at a time on the two-core machines here: most files wait on a loopback emulator,
    // a child CLI or Chromium, so this halves the wall time (400 s -> 240 s) with no test flaking.
    maxWorkers: 2,
    // probes PLATCTL_TEST_DATABASE_URL once: required under CI=true, else skipped with one line
    // builds dist/ when it is older than src/: the tests start the CLI from the build
    globalSetup: ['test/helpers/build-setup.ts', 'test/helpers/postgres-setup.ts'],
  },
});
