/**
 * Controller memory benchmark:
 * `npx tsx bench/controller-rss.ts [--resources 10000] [--interval 10] [--idle 5] [--concurrency 32]
 * [--heap MB] [--node-option FLAG]... [--runtime dist|tsx] [--profile DIR]`.
 *
 * Writes N resources (the platform of `bench/engine.ts`: workspaces over the seeded projects, one
 * user in twenty) into a directory, starts the emulator and a real `platctl controller --watch`
 * process on loopback (SQLite state in a temporary directory, no rate limit), waits for the first
 * run to converge, then for `--idle` more runs with nothing to do. After each run it reads the
 * controller's RSS from /proc (`VmRSS`, and `VmHWM`, the peak so far) and prints one row per run,
 * with the run's result and duration from the controller's `run-end` log line and the load
 * average, and the CPU time (`utime + stime`) the process spent since the previous row.
 * `--runtime dist` (the default) runs what the image ships: the compiled `dist/src/cli/bin.js` with
 * plain node, as the Dockerfile's entrypoint does (`npm run build` first); `--runtime tsx` runs the
 * TypeScript sources through tsx's loader, which costs memory of its own. `--heap` starts the
 * controller with `--max-old-space-size=MB` (V8 then collects before growing its heap past it);
 * without it the controller runs with the environment's `NODE_OPTIONS`, as a container would.
 * `--node-option` passes a further node flag to the controller (repeatable; e.g.
 * `--max-semi-space-size=4`, or `--import=FILE` of a probe).
 * `--profile DIR` adds `--cpu-prof` and `--heap-prof` (sampled allocations) written to DIR when the
 * controller exits. `--alloc-profile FILE` samples every allocation of the idle runs, collected
 * ones included (what `--heap-prof` leaves out: a resync's garbage), from the end of the first run
 * to the end of the last, into FILE (a `.heapprofile` for Chrome's DevTools), through an inspector
 * session a small `--import` probe opens in the controller. Every process started here is stopped
 * at the end.
 */

import { type ChildProcess, spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import {
  appendFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';
import { startChildEmulator } from './child-emulator.js';
import { platformDocuments } from './platform.js';

const { values } = parseArgs({
  options: {
    resources: { type: 'string', default: '10000' },
    interval: { type: 'string', default: '10' },
    idle: { type: 'string', default: '5' },
    concurrency: { type: 'string', default: '32' },
    heap: { type: 'string' },
    'node-option': { type: 'string', multiple: true, default: [] },
    runtime: { type: 'string', default: 'dist' },
    profile: { type: 'string' },
    'alloc-profile': { type: 'string' },
    /** Append the controller's log (its JSON lines on standard error) to this file. */
    log: { type: 'string' },
  },
});
const n = Number(values.resources);
const idleRuns = Number(values.idle);
const PASSWORD = 'Bench-password-1';

const dir = mkdtempSync(join(tmpdir(), 'platctl-bench-controller-'));
const manifests = join(dir, 'manifests');
mkdirSync(manifests);
// 100 documents a file, as a repository of 10,000 resources would hold them
const docs = platformDocuments(n);
for (let f = 0; f * 100 < docs.length; f++) {
  const part = docs.slice(f * 100, (f + 1) * 100).join('---\n');
  writeFileSync(join(manifests, `part-${String(f).padStart(4, '0')}.yaml`), part);
}
const apiKey = randomBytes(16).toString('hex');
const emulator = await startChildEmulator(apiKey);

const tsx = values.runtime === 'tsx';
if (!tsx && values.runtime !== 'dist')
  throw new Error(`--runtime: dist or tsx, not ${values.runtime}`);
const bin = fileURLToPath(
  new URL(tsx ? '../src/cli/bin.ts' : '../dist/src/cli/bin.js', import.meta.url),
);
if (!existsSync(bin)) throw new Error(`${bin} is missing: run \`npm run build\` first`);
const profile = values.profile
  ? [
      '--cpu-prof',
      '--cpu-prof-dir',
      values.profile,
      '--heap-prof',
      '--heap-prof-dir',
      values.profile,
    ]
  : [];
// SIGUSR2 starts sampling allocations, the next one writes what was sampled to the file
const PROBE = `import { Session } from 'node:inspector';
import { writeFileSync } from 'node:fs';
const session = new Session();
session.connect();
let sampling = false;
process.on('SIGUSR2', () => {
  if (!sampling) {
    sampling = true;
    session.post('HeapProfiler.startSampling', { samplingInterval: 16384,
      includeObjectsCollectedByMajorGC: true, includeObjectsCollectedByMinorGC: true });
    return;
  }
  session.post('HeapProfiler.stopSampling', (err, r) => {
    writeFileSync(process.env.BENCH_ALLOC_PROFILE, err ? String(err) : JSON.stringify(r.profile));
  });
});
`;
const allocProfile = values['alloc-profile'];
const probe = join(dir, 'alloc-probe.mjs');
if (allocProfile) writeFileSync(probe, PROBE);
const controller: ChildProcess = spawn(
  process.execPath,
  [
    ...(values.heap ? [`--max-old-space-size=${values.heap}`] : []),
    ...(values['node-option'] ?? []),
    ...profile,
    ...(allocProfile ? [`--import=${probe}`] : []),
    ...(tsx ? ['--import', 'tsx'] : []),
    bin,
    'controller',
    '--watch',
    manifests,
    '--interval',
    `${values.interval}s`,
    '--listen',
    '127.0.0.1:0',
    '--state',
    join(dir, 'state.db'),
    '--concurrency',
    values.concurrency ?? '32',
  ],
  {
    stdio: ['ignore', 'ignore', 'pipe'],
    env: {
      ...process.env,
      PLATCTL_BASE_URL: emulator.url,
      PLATCTL_API_KEY: apiKey,
      BENCH_PASSWORD: PASSWORD,
      ...(allocProfile ? { BENCH_ALLOC_PROFILE: allocProfile } : {}),
    },
  },
);

/** utime + stime of the controller in seconds (clock ticks are 1/100 s on Linux). */
function cpuSeconds(): number {
  const stat = readFileSync(`/proc/${controller.pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** `VmRSS` and `VmHWM` of the controller in MB. */
function memory(): { rss: number; peak: number } {
  const text = readFileSync(`/proc/${controller.pid}/status`, 'utf8');
  const kb = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+)`).exec(text)?.[1] ?? 0);
  return { rss: kb('VmRSS') / 1024, peak: kb('VmHWM') / 1024 };
}

interface RunEnd {
  readonly result: string;
  readonly seconds: number;
}
const runs: RunEnd[] = [];
let waiting: ((r: RunEnd) => void) | undefined;
let buf = '';
let lastLines: string[] = [];
// pino writes its JSON lines to standard error
controller.stderr?.on('data', (d: Buffer) => {
  if (values.log) appendFileSync(values.log, d);
  buf += d.toString();
  const lines = buf.split('\n');
  buf = lines.pop() ?? '';
  lastLines = [...lastLines, ...lines].slice(-40);
  for (const line of lines) {
    if (!line.includes('"run-end"')) continue;
    const r = JSON.parse(line) as RunEnd;
    runs.push(r);
    waiting?.(r);
  }
});
let exited: ((code: number | null) => void) | undefined;
controller.once('exit', (code) => exited?.(code));
const nextRun = (timeoutMs: number) =>
  new Promise<RunEnd>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error('no run ended in time')), timeoutMs);
    // a controller that stops before its run ends: say why instead of waiting out the timeout
    exited = (code) => {
      clearTimeout(timer);
      reject(new Error(`the controller exited (${code}):\n${[...lastLines, buf].join('\n')}`));
    };
    waiting = (r) => {
      clearTimeout(timer);
      waiting = undefined;
      resolve(r);
    };
  });

const rows: string[] = [];
let cpuBefore = 0;
try {
  for (let i = 0; i <= idleRuns; i++) {
    const r = await nextRun(i === 0 ? 900_000 : 120_000);
    // let the run's garbage be collected the way an idle controller would, then read
    await new Promise((res) => setTimeout(res, 1000));
    const m = memory();
    const cpu = cpuSeconds();
    rows.push(
      `| ${n} | ${i === 0 ? 'first (converge)' : `idle ${i}`} | ${r.result} | ${r.seconds.toFixed(1)} s | ${(cpu - cpuBefore).toFixed(1)} s | ${m.rss.toFixed(0)} MB | ${m.peak.toFixed(0)} MB | ${loadavg()[0]?.toFixed(1)} |`,
    );
    cpuBefore = cpu;
    console.error(rows.at(-1));
    if (allocProfile && (i === 0 || i === idleRuns)) controller.kill('SIGUSR2');
  }
  if (allocProfile) {
    for (let t = 0; t < 100 && !existsSync(allocProfile); t++) {
      await new Promise((res) => setTimeout(res, 100));
    }
  }
} finally {
  controller.kill('SIGTERM');
  emulator.close();
  if (controller.exitCode === null && controller.signalCode === null) {
    await new Promise((r) => controller.once('exit', r));
  }
  rmSync(dir, { recursive: true, force: true });
}
console.log(
  `controller (${tsx ? 'sources through tsx' : 'dist/ with plain node'}), ${n} resources, --interval ${values.interval}s${values.heap ? `, --max-old-space-size=${values.heap}` : ''}${values['node-option']?.length ? `, ${values['node-option'].join(' ')}` : ''}\n`,
);
console.log(
  '| resources | run | result | run time | CPU since last row | RSS after | peak RSS so far | load (1 min) |',
);
console.log('|---|---|---|---|---|---|---|---|');
for (const r of rows) console.log(r);
