/**
 * Engine benchmark:
 * `npx tsx bench/engine.ts --resources 1000 [--rps 200] [--concurrency 32] [--in-process]
 * [--state postgres] [--apply-only] [--progress throttled|verbose] [--in-process --fail-reads]
 * [--emulator-profile DIR]`.
 * A run whose reads failed says so in its status (`planned, N unread`) and the script exits 1:
 * a plan that could not read resources still says `planned`, and once hid a paging bug that sent
 * 67,805 requests for a no-op plan. `--fail-reads` makes every read of the plan after apply
 * answer 500, to see that flag.
 *
 * Generates a platform of N resources (workspaces spread over the seeded projects, plus one user
 * in twenty), starts the emulator on a loopback port (its own process unless `--in-process`), and
 * measures with the real engine over HTTP: plan on the empty platform, apply, and the plan after
 * it. For each it reports wall time, the engine's and the emulator's CPU (read from /proc for the
 * emulator's process; in-process the one figure holds both), requests made (every attempt)
 * against the fewest the API allows, wall ÷ (requests ÷ rps), peak RSS, the load average and the
 * time actions waited on state writes. *Engine CPU per resource* is `process.cpuUsage()` over the
 * run divided by N (for the apply: per create, the load and plan before them included). `--progress` renders the events as `apply` does off a
 * terminal (to /dev/null), so their cost is in the engine's CPU. `--state postgres` keeps the
 * state in a fresh schema of $PLATCTL_BENCH_DATABASE_URL (default the local test database),
 * dropped afterwards.
 */

import { randomBytes } from 'node:crypto';
import { createWriteStream, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import pg from 'pg';
import { progressPrinter } from '../src/cli/progress.js';
import { emulatorControl } from '../src/emulator/admin/client.js';
import { startEmulator } from '../src/emulator/index.js';
import { createRunPorts } from '../src/reconcile/default-ports.js';
import { reconcile } from '../src/reconcile/run.js';
import { openState } from '../src/state/index.js';
import { startChildEmulator } from './child-emulator.js';
import { PROJECTS, platformDocuments } from './platform.js';
import { profiled } from './profiled.js';
import { timedStore } from './timed-store.js';

const { values } = parseArgs({
  options: {
    resources: { type: 'string', default: '1000' },
    rps: { type: 'string', default: '200' },
    concurrency: { type: 'string', default: '32' },
    'in-process': { type: 'boolean', default: false },
    state: { type: 'string', default: 'sqlite' },
    /** Only the apply (no plan before or after), e.g. for a profile of the apply alone. */
    'apply-only': { type: 'boolean', default: false },
    /** Render progress as the CLI does, off a terminal, to /dev/null: `throttled` or `verbose`. */
    progress: { type: 'string', default: 'none' },
    // check of the bench itself: the plan after apply meets 500s on every workspace read
    'fail-reads': { type: 'boolean', default: false },
    /** Write the separate emulator's CPU profile (`node --cpu-prof`) into this directory. */
    'emulator-profile': { type: 'string' },
    /** Write the engine's CPU profile of the plan after apply (the no-op plan) to this file. */
    'plan-profile': { type: 'string' },
  },
});
const n = Number(values.resources);
const progress =
  values.progress === 'none'
    ? undefined
    : progressPrinter(createWriteStream('/dev/null'), { verbose: values.progress === 'verbose' });
const rps = Number(values.rps);
const concurrency = Number(values.concurrency);
const PAGE = 1000; // the list endpoints' maximum page size

const users = Math.floor(n / 20);
const workspaces = n - users;
const docs = platformDocuments(n);
const perProject = new Map<string, number>();
for (let i = 0; i < workspaces; i++) {
  const project = PROJECTS[i % PROJECTS.length]!;
  perProject.set(project, (perProject.get(project) ?? 0) + 1);
}

// The fewest requests: one list page per started 1000 objects that exist, per project (and for
// users, whose list also holds the seeded admin), plus one create per resource.
const pages = (count: number) => Math.max(1, Math.ceil(count / PAGE));
const minObserve = (existing: boolean) =>
  [...perProject.values()].reduce((s, c) => s + pages(existing ? c : 0), 0) +
  (users ? pages(existing ? users + 1 : 1) : 0);
const minApply = minObserve(false) + n;

const dir = mkdtempSync(join(tmpdir(), 'platctl-bench-'));
// files of 1,000 documents: one file of 100,000 would pass the loader's limits per file
const file = join(dir, 'manifests');
mkdirSync(file);
for (let i = 0; i < docs.length; i += 1000) {
  const name = `platform-${String(i / 1000).padStart(3, '0')}.yaml`;
  writeFileSync(join(file, name), docs.slice(i, i + 1000).join('---\n'));
}
const apiKey = randomBytes(16).toString('hex');
// The emulator runs in its own process, so the engine's CPU and memory are measured alone.
const inProcess = values['in-process'] === true;
if (values['fail-reads'] && !inProcess) throw new Error('--fail-reads needs --in-process');
const emulator = inProcess ? await inProcessEmulator() : await childEmulator();

async function inProcessEmulator() {
  const emu = await startEmulator({ apiKey, port: 0, admin: values['fail-reads'] === true });
  return { url: emu.url, cpuSeconds: () => Number.NaN, close: () => void emu.close() };
}

function childEmulator() {
  const dir = values['emulator-profile'];
  return startChildEmulator(apiKey, dir ? ['--cpu-prof', `--cpu-prof-dir=${dir}`] : []);
}
const schema = `bench_${randomBytes(4).toString('hex')}`;
const databaseUrl =
  process.env.PLATCTL_BENCH_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';
const stateTarget =
  values.state === 'postgres' ? `${databaseUrl}?schema=${schema}` : join(dir, 'state.db');
let requests = 0;
let peak = 0;
const retries = new Map<string, number>();
const sampler = setInterval(() => {
  peak = Math.max(peak, process.memoryUsage.rss());
}, 50);

async function measure(mode: 'plan' | 'apply') {
  const state = timedStore(await openState(stateTarget));
  const ports = createRunPorts({
    state,
    baseUrl: emulator.url,
    apiKey,
    ...(rps > 0 ? { rps } : {}),
    httpConcurrency: 16,
    env: { BENCH_PASSWORD: 'Bench-password-1' },
    onRequest: () => {
      requests++;
    },
    client: {
      // why attempts were retried: a run with retries says which requests and causes
      onRetry: (e) => {
        const cause = `${e.method} ${e.route} ${e.failure ?? e.status} after ~${Math.round(e.durationMs / 1000)} s`;
        retries.set(cause, (retries.get(cause) ?? 0) + 1);
      },
    },
    ...(progress ? { events: progress } : {}),
  });
  requests = 0;
  peak = process.memoryUsage.rss();
  const start = performance.now();
  const cpu = process.cpuUsage();
  const usage0 = process.resourceUsage();
  const emuCpu0 = emulator.cpuSeconds();
  const result = await reconcile(
    {
      paths: [file],
      mode,
      concurrency,
      approve: async (plan) => {
        progress?.begin(plan.actions.filter((a) => a.type !== 'noop').length);
        return true;
      },
    },
    ports,
  ).finally(() => progress?.end());
  const seconds = (performance.now() - start) / 1000;
  const used = process.cpuUsage(cpu);
  const usage = process.resourceUsage();
  // wake-ups: each time a thread of the engine blocked (epoll, a lock) and was woken again
  const wakeups = usage.voluntaryContextSwitches - usage0.voluntaryContextSwitches;
  const preempted = usage.involuntaryContextSwitches - usage0.involuntaryContextSwitches;
  console.error(
    `${mode}: user ${(used.user / 1e6).toFixed(2)} s, system ${(used.system / 1e6).toFixed(2)} s; ${wakeups} voluntary context switches (${(wakeups / n).toFixed(2)} per resource), ${preempted} involuntary`,
  );
  const cpuSeconds = (used.user + used.system) / 1e6;
  const emulatorCpu = emulator.cpuSeconds() - emuCpu0;
  await ports.close();
  await state.close();
  peak = Math.max(peak, process.memoryUsage.rss());
  const load = loadavg()[0]!;
  // a read that failed leaves its resources out of the run (deferred in a plan, failed at
  // `#observe` in an apply) while the run itself can still say `planned`: flag it in the row
  const unread =
    (result.plan?.diagnostics.filter((d) => d.message.includes('could not be read')).length ?? 0) +
    Object.keys(result.outcomes ?? {}).filter((id) => id.endsWith('#observe')).length;
  if (unread > 0) process.exitCode = 1;
  const failed = Object.entries(result.outcomes ?? {}).filter(([, o]) => o.status === 'failed');
  for (const [id, o] of failed.slice(0, 3))
    console.error(`${mode}: ${id} failed: ${JSON.stringify(o)}`);
  // the failures' messages, counted, so a failed run says why without reading its outcomes
  const why = new Map<string, number>();
  for (const [, o] of failed) {
    const m = JSON.stringify(o)
      .replace(/[0-9a-f]{8,}|\d+/g, 'N')
      .slice(0, 300);
    why.set(m, (why.get(m) ?? 0) + 1);
  }
  for (const [m, c] of why) console.error(`${mode}: ${c} failed with ${m}`);
  for (const [cause, c] of retries) console.error(`${mode}: ${c} retried: ${cause}`);
  retries.clear();
  // what the plan would change: 0 for the plan after a complete apply (a no-op plan)
  const changes = result.plan?.actions.filter((a) => a.type !== 'noop').length ?? 0;
  return {
    status: `${unread > 0 ? `${result.status}, ${unread} unread` : result.status}${failed.length ? `, ${failed.length} failed` : ''}${mode === 'plan' ? `, ${changes} changes` : ''}`,
    seconds,
    cpuSeconds,
    userSeconds: used.user / 1e6,
    emulatorCpu,
    requests,
    peakMb: peak / 2 ** 20,
    load,
    writeMs: state.writeMs,
    writes: state.writes,
  };
}

const applyOnly = values['apply-only'] === true;
const plan0 = applyOnly ? undefined : await measure('plan');
const apply = await measure('apply');
if (values['fail-reads']) {
  const res = await emulatorControl(emulator.url, 'POST', '/_emulator/faults', {
    path: '^/apis/.*',
    method: 'GET',
    status: 500,
  });
  if (!res.ok) throw new Error(`could not inject the read fault: ${res.status}`);
}
const plan1 = applyOnly ? undefined : await profiled(values['plan-profile'], () => measure('plan'));

clearInterval(sampler);
emulator.close();
rmSync(dir, { recursive: true, force: true });
if (values.state === 'postgres') {
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
  await admin.end();
}

const row = (name: string, r: Awaited<ReturnType<typeof measure>>, min: number) =>
  `| ${n} | ${name} | ${r.status} | ${r.seconds.toFixed(2)} s | ${r.cpuSeconds.toFixed(2)} s (user ${r.userSeconds.toFixed(2)} s) | ${((r.cpuSeconds * 1000) / n).toFixed(2)} ms (user ${((r.userSeconds * 1000) / n).toFixed(2)}) | ${Number.isNaN(r.emulatorCpu) ? 'in engine' : `${r.emulatorCpu.toFixed(2)} s`} | ${r.requests} | ${min} | ${(r.requests / rps).toFixed(2)} s | ${(r.seconds / (r.requests / rps)).toFixed(2)} | ${r.peakMb.toFixed(0)} MB | ${r.load.toFixed(1)} | ${values.state}: ${r.writes} in ${(r.writeMs / 1000).toFixed(2)} s |`;
console.log(
  `resources ${n} (${workspaces} workspaces, ${users} users), --rps ${rps}, --concurrency ${concurrency}, emulator ${inProcess ? 'in-process' : 'in its own process'}\n`,
);
console.log(
  '| resources | run | status | wall time | engine CPU | engine CPU per resource | emulator CPU | requests | minimum | requests ÷ rps | wall ÷ (requests ÷ rps) | peak RSS | load (1 min) | state writes |',
);
console.log('|---|---|---|---|---|---|---|---|---|---|---|---|---|---|');
if (plan0) console.log(row('plan (empty platform)', plan0, minObserve(false)));
console.log(row('apply', apply, minApply));
if (plan1) console.log(row('plan after apply', plan1, minObserve(true)));
