/**
 * Start-up benchmark: `npx tsx bench/startup.ts [--runs 10] [--ways installed,clone,tsx]`.
 *
 * How long `platctl` takes before it does its own work: `--version`, `--help`, and each
 * command's `--help` (the command's modules loaded, its flags parsed, nothing run), each started
 * as a fresh process `--runs` times; prints the median and the fastest wall time and the median
 * CPU time (user + system, from `/usr/bin/time` when present: less swayed by a busy machine than
 * the wall), with the load average and a bare `node -e 0` beside them. Needs a fresh build (`npm run build`). The ways it is started:
 *
 * - `installed`: `node dist/src/cli/bin.js`, what an installed package's bin runs;
 * - `clone`: `node bin/platctl.js` in this clone, which runs the build when it is newer than
 *   every source (its staleness check included in the figure);
 * - `tsx`: `node --import tsx src/cli/bin.ts`, what a clone without a (fresh) build runs;
 * - `before`: `node <--before>`, another build's `dist/src/cli/bin.js` (with `--ways before,...`).
 *
 * Targets (issue 24): `--version` and `--help` ≤ 0.15 s, a command's start-up ≤ 0.25 s.
 */

import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { loadavg } from 'node:os';
import { fileURLToPath } from 'node:url';
import { parseArgs } from 'node:util';

const { values } = parseArgs({
  options: {
    runs: { type: 'string', default: '10' },
    ways: { type: 'string', default: 'installed,clone,tsx' },
    /** Another build's entry point to compare with, as the way `before`. */
    before: { type: 'string' },
  },
});
const runs = Number(values.runs);
const repo = fileURLToPath(new URL('../', import.meta.url));

const ways: Record<string, readonly string[]> = {
  installed: ['dist/src/cli/bin.js'],
  clone: ['bin/platctl.js'],
  tsx: ['--import', 'tsx', 'src/cli/bin.ts'],
  ...(values.before ? { before: [values.before] } : {}),
};
const commands = [
  'validate',
  'emulator',
  'plan',
  'apply',
  'demo',
  'controller',
  'ctl',
  'import',
  'usage',
  'state',
];
const cases: { name: string; args: string[]; target: number }[] = [
  { name: '--version', args: ['--version'], target: 150 },
  { name: '--help', args: ['--help'], target: 150 },
  ...commands.map((c) => ({ name: `${c} --help`, args: [c, '--help'], target: 250 })),
];

if (!existsSync(new URL('../dist/src/cli/bin.js', import.meta.url))) {
  throw new Error('no build: run npm run build first');
}

const TIME = '/usr/bin/time';
const timed = existsSync(TIME);

/** Wall and CPU milliseconds of one fresh process (CPU NaN without /usr/bin/time). */
function once(argv: readonly string[]): { wall: number; cpu: number } {
  const [cmd, args] = timed
    ? [TIME, ['-f', '@cpu %U %S', process.execPath, ...argv]]
    : [process.execPath, [...argv]];
  const t0 = process.hrtime.bigint();
  const r = spawnSync(cmd, args, { cwd: repo, stdio: ['ignore', 'ignore', 'pipe'] });
  const wall = Number(process.hrtime.bigint() - t0) / 1e6;
  const stderr = r.stderr.toString();
  if (r.status !== 0) throw new Error(`${argv.join(' ')}: exit ${r.status}: ${stderr}`);
  const m = /@cpu ([\d.]+) ([\d.]+)/.exec(stderr);
  if (argv[0] === 'bin/platctl.js' && stderr.replace(/@cpu.*\n?/, '') !== '') {
    throw new Error(`the clone's bin did not run the build: ${stderr}`);
  }
  return { wall, cpu: m ? (Number(m[1]) + Number(m[2])) * 1000 : Number.NaN };
}

const med = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;
const s = (ms: number) => (Number.isNaN(ms) ? '–' : `${(ms / 1000).toFixed(3)} s`);
const baseline = Array.from({ length: runs }, () => once(['-e', '0']));
console.log(
  `node -e 0: median ${s(med(baseline.map((b) => b.wall)))} wall, ${s(med(baseline.map((b) => b.cpu)))} CPU; load ${loadavg()
    .map((l) => l.toFixed(1))
    .join(' ')}; ${runs} runs each`,
);
console.log('| Way | Command | Wall, median | Wall, fastest | CPU, median | Target (wall) |');
console.log('|---|---|---|---|---|---|');
for (const way of values.ways.split(',')) {
  for (const c of cases) {
    const times = Array.from({ length: runs }, () => once([...ways[way]!, ...c.args]));
    const wall = med(times.map((t) => t.wall));
    const mark = wall <= c.target ? 'pass' : 'miss';
    console.log(
      `| ${way} | \`${c.name}\` | ${s(wall)} | ${s(Math.min(...times.map((t) => t.wall)))} | ${s(med(times.map((t) => t.cpu)))} | ≤ ${c.target / 1000} s ${mark} |`,
    );
  }
}
