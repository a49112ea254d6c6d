import { readdirSync, readFileSync } from 'node:fs';
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
  'test/dashboard/live-status.test.ts',
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
/**
 * The suites `npm run test:rafay` runs again on the vendor's dialect: those whose requests or
 * answers differ by dialect (docs/dialects.md) — every kind created, read, updated and deleted
 * (the demo, the examples, the README walk-through), ownership where creates are applies, lists
 * and their paging, profile reads, usage, import, retries, faults and crash recovery, a
 * controller's runs, drift and power actions, and the dashboard on them; the emulator's billing
 * reports and its /docs page (the dialect's headers and examples). Suites about state
 * stores, leases, the CLI's own behaviour or notifications send the same requests on either
 * dialect and run once; doctor and the dialect tests name both dialects themselves.
 */
const DIALECT_SUITES = [
  'test/e2e/demo.test.ts',
  'test/e2e/readme-walkthrough.test.ts',
  'test/e2e/apply-examples.test.ts',
  'test/e2e/request-shapes.test.ts',
  'test/e2e/dialect-clusters.test.ts',
  'test/e2e/manifest-capabilities.test.ts',
  'test/e2e/preflight.test.ts',
  'test/e2e/ownership.test.ts',
  'test/e2e/adopt.test.ts',
  'test/e2e/paging.test.ts',
  'test/e2e/project-list.test.ts',
  'test/e2e/prune-order.test.ts',
  'test/e2e/prune-readless.test.ts',
  'test/e2e/left-on-platform.test.ts',
  'test/e2e/drift-wording.test.ts',
  'test/e2e/gpu-estimates.test.ts',
  'test/e2e/no-vpc-plan.test.ts',
  'test/e2e/power-schedule.test.ts',
  'test/e2e/faults.test.ts',
  'test/faults/crash.test.ts',
  'test/faults/matrix.test.ts',
  'test/import/**/*.test.ts',
  'test/usage/**/*.test.ts',
  'test/emulator/billing-http.test.ts',
  'test/emulator/docs-examples.test.ts',
  'test/emulator/docs-page.test.ts',
  'test/controller/e2e-apply.test.ts',
  'test/controller/e2e-drift-kinds.test.ts',
  'test/controller/e2e-power-request.test.ts',
  'test/controller/e2e-left-on-platform.test.ts',
  'test/controller/e2e-truthful.test.ts',
  'test/dashboard/e2e-dashboard.test.ts',
];
/**
 * Directories whose files run one after another in a shared process (`isolate: false`): importing
 * a file's modules in a fresh process was about a third of these files' CPU (the emulator's, the
 * engine's, ajv's and yaml's modules, an emulator's compiled API: once per worker instead of once
 * per file). Their modules hold only caches of pure results. A file that changes what a process
 * shares ({@link PROCESS_STATE}: module mocks, nock, fake timers, stubbed or assigned environment,
 * process listeners) and the slow suites run isolated as before, found by reading the files. The
 * providers' `useNock` (test/providers/helpers.ts) turns nock on for its suite only and off after,
 * so the files that intercept through it share the process too.
 */
const SHARED_PROCESS_DIRS = [
  'test/manifests',
  'test/reconcile',
  'test/emulator',
  'test/state',
  'test/cli',
  'test/providers',
];
const PROCESS_STATE =
  /\bvi\.(mock|doMock|unmock|stubEnv|stubGlobal|useFakeTimers|resetModules)\b|\bnock\b|process\.(on|once|chdir)\(|process\.env\.\w+\s*=[^=]|delete process\.env/;
const SHARED_PROCESS = SHARED_PROCESS_DIRS.flatMap((dir) =>
  (readdirSync(dir, { recursive: true }) as string[])
    .filter((f) => f.endsWith('.test.ts'))
    .map((f) => `${dir}/${f}`),
).filter((f) => !SLOW.includes(f) && !PROCESS_STATE.test(readFileSync(f, 'utf8')));

const all = process.env.PLATCTL_TEST_ALL === '1';
const dialectOnly = process.env.PLATCTL_TEST_SUITE === 'dialect';
const include = dialectOnly ? DIALECT_SUITES : ['test/**/*.test.ts'];
const exclude = ['**/node_modules/**', ...(all ? [] : SLOW)];

/** What every project runs with. */
const shared = {
  testTimeout: 30_000,
  hookTimeout: 30_000,
  // expect.poll gives up after 1 s by default: a browser redraw or a child process's answer on a
  // loaded two-core CI machine can take longer (stop 31's CI). Polls wait 10 s unless they say.
  expect: { poll: { timeout: 10_000 } },
  pool: 'forks',
} as const;

export default defineConfig({
  test: {
    // Two files at a time on the two-core machines here: most files wait on a loopback emulator,
    // a child CLI or Chromium, so this halves the wall time (400 s -> 240 s) with no test flaking.
    maxWorkers: 2,
    // probes PLATCTL_TEST_DATABASE_URL once: required under CI=true, else skipped with one line
    // builds dist/ when it is older than src/: the tests start the CLI from the build
    // (once per run: the projects below do not extend this config, so they do not repeat it)
    globalSetup: ['test/helpers/build-setup.ts', 'test/helpers/postgres-setup.ts'],
    projects: [
      // the dialect pass runs its files isolated (the second project), as it always did
      ...(dialectOnly
        ? []
        : [
            {
              test: { ...shared, name: 'shared', include: SHARED_PROCESS, exclude, isolate: false },
            },
          ]),
      {
        test: {
          ...shared,
          name: 'isolated',
          include,
          exclude: dialectOnly ? exclude : [...exclude, ...SHARED_PROCESS],
        },
      },
    ],
  },
});
