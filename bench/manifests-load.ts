/**
 * Benchmark: load and validate manifest documents, in-process and as a whole `platctl validate`.
 *
 *   npx tsx bench/manifests-load.ts [documents=10000] [documentsPerFile=100]
 *     [--out DIR] [--cli 1000,10000,100000|none] [--runs 3] [--bin dist/src/cli/bin.js ...]
 *     [--no-vpc]
 *
 * Writes the generated set (`bench/manifest-set.ts`) and prints one JSON row per measurement:
 * - `loadAndValidate`: the loader called once in this process on `documents` documents; wall and
 *   CPU time and this process's peak RSS. With `--streamed`, `validateManifests` instead (what
 *   `platctl validate` runs: each file let go of once checked).
 * - `cli`: for each size of `--cli`, `--runs` runs of the compiled CLI as a user runs it,
 *   `taskset -c 0 node BIN validate DIR` (one core, Node's start, module loading and printing
 *   included), timed by `/usr/bin/time`: wall, user and system CPU, peak RSS. Needs `npm run build`.
 *   Several `--bin`s (say the build before a change and after it) are run alternately, so they
 *   share the machine's minutes.
 * `--no-vpc` generates the set without VPC services (its compute in projects without a declared
 * VPC: warnings, and validate still exits 0). Every row carries the load average. Sets are written to temporary directories and removed, or,
 * with `--out DIR`, kept as `DIR/<documents>` and reused by the next run, so a row can be
 * reproduced by hand (`taskset -c 0 node dist/src/cli/bin.js validate DIR/10000`).
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseArgs } from 'node:util';
import { loadAndValidate, validateManifests } from '../src/manifests/index.js';
import { writeManifestSet } from './manifest-set.js';

const { values, positionals } = parseArgs({
  allowPositionals: true,
  options: {
    out: { type: 'string' },
    cli: { type: 'string', default: '1000,10000,100000' },
    runs: { type: 'string', default: '3' },
    bin: { type: 'string', multiple: true, default: ['dist/src/cli/bin.js'] },
    'no-vpc': { type: 'boolean', default: false },
    streamed: { type: 'boolean', default: false },
  },
});
const total = Number(positionals[0] ?? 10_000);
const perFile = Number(positionals[1] ?? 100);
const cliSizes = values.cli === 'none' ? [] : values.cli.split(',').map(Number);
const runs = Number(values.runs);
const load = () => loadavg()[0]?.toFixed(1);

const root = values.out ?? mkdtempSync(join(tmpdir(), 'platctl-bench-'));
const vpc = !values['no-vpc'];
/** The directory holding the set of `n` documents, written when missing. */
const setOf = (n: number): string => {
  const dir = join(root, vpc ? String(n) : `${n}-no-vpc`);
  writeManifestSet(dir, n, perFile, vpc);
  return dir;
};

/** `loadAndValidate` once, in this process. */
async function inProcessRow(): Promise<void> {
  const dir = setOf(total);
  const rssBefore = process.memoryUsage().rss;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const r = values.streamed
    ? await validateManifests({ paths: [dir], env: {} })
    : await loadAndValidate({ paths: [dir], env: {} }).then((l) => ({
        valid: l.manifests.length,
        diagnostics: l.diagnostics,
      }));
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const errors = r.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0 || r.valid !== total) {
    console.error(`unexpected result: ${r.valid} manifests, ${errors.length} errors`);
    console.error(errors.slice(0, 5));
    process.exitCode = 1;
  }
  console.log(
    JSON.stringify({
      row: values.streamed ? 'validateManifests' : 'loadAndValidate',
      documents: total,
      files: Math.ceil(total / perFile),
      wallMs: Math.round(ms),
      // CPU time is steadier than wall time on a shared machine.
      cpuMs: Math.round((cpu.user + cpu.system) / 1000),
      loadAverage: load(),
      docsPerSecond: Math.round((total / ms) * 1000),
      peakRssMb: Math.round(process.resourceUsage().maxRSS / 1024),
      rssBeforeMb: Math.round(rssBefore / 1024 / 1024),
      warnings: r.diagnostics.length - errors.length,
      node: process.version,
      cpu: `${cpus().length} × ${cpus()[0]?.model ?? 'unknown'}`,
    }),
  );
}

/** One whole `platctl validate DIR` process on core 0, timed by /usr/bin/time. */
function cliRun(bin: string, n: number, dir: string): void {
  const loadAverage = load();
  const r = spawnSync(
    'taskset',
    ['-c', '0', '/usr/bin/time', '-f', 'TIME %e %U %S %M', process.execPath, bin, 'validate', dir],
    { encoding: 'utf8', env: { ...process.env, DEMO_PASSWORD: 'x' }, timeout: 120_000 },
  );
  const line = /TIME (\S+) (\S+) (\S+) (\d+)/.exec(r.stderr ?? '');
  const out = r.stdout.trim();
  const warnings = Number(/^0 errors, (\d+) warnings?$/m.exec(out)?.[1] ?? 0);
  const valid = r.status === 0 && (out === `${n} manifests valid` || (!vpc && warnings > 0));
  if (!line || !valid) {
    console.error(
      `${bin} validate ${dir}: exit ${r.status}\n${r.stdout}${r.stderr}`.slice(0, 2000),
    );
    process.exitCode = 1;
    return;
  }
  const [, wall, user, sys, rssKb] = line;
  console.log(
    JSON.stringify({
      row: 'cli',
      bin,
      documents: n,
      wallS: Number(wall),
      userS: Number(user),
      sysS: Number(sys),
      peakRssMb: Math.round(Number(rssKb) / 1024),
      warnings,
      loadAverage,
    }),
  );
}

try {
  await inProcessRow();
  if (cliSizes.length > 0) {
    const bins = values.bin;
    const missing = bins.filter((b) => !existsSync(b));
    if (missing.length > 0) throw new Error(`${missing.join(', ')} missing: run npm run build`);
    for (const n of cliSizes) {
      const dir = setOf(n);
      for (let i = 0; i < runs; i++) for (const bin of bins) cliRun(bin, n, dir);
    }
  }
} finally {
  if (!values.out) rmSync(root, { recursive: true, force: true });
}
