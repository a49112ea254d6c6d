/**
 * What a hostile fault pattern costs a request: V8's backtracking `RegExp` (what the emulator used)
 * against RE2JS (what it uses), on paths built to make backtracking search, and the round trip of
 * such a request to an in-process emulator on loopback with the fault installed.
 *
 *   npx tsx bench/fault-patterns.ts [--budget-ms 1500] [--requests 20]
 *
 * The backtracking column grows the path until one match exceeds the budget, then stops.
 */
import { parseArgs } from 'node:util';
import { RE2JS } from 're2js';
import { emulatorControl } from '../src/emulator/admin/client.js';
import { startEmulator } from '../src/emulator/index.js';

const { values } = parseArgs({
  options: {
    'budget-ms': { type: 'string', default: '1500' },
    requests: { type: 'string', default: '20' },
  },
});
const budgetMs = Number(values['budget-ms']);
const requests = Number(values.requests);

// [pattern, a path of n repeated characters it fails on only after searching]
const CASES: readonly [string, (n: number) => string][] = [
  ['^/(a+)+$', (n) => `/${'a'.repeat(n)}!`],
  ['^/(a|a)*$', (n) => `/${'a'.repeat(n)}!`],
  ['^/(\\w+\\s?)*$', (n) => `/${'a'.repeat(n)}!`],
  ['^(.*a){12}$', (n) => `/${'a'.repeat(n)}!`],
];
const LONGEST = 8000; // Node's 16 KiB header limit bounds a path near there

function ms(f: () => unknown): number {
  const start = performance.now();
  f();
  return performance.now() - start;
}

/** Grows n until one backtracking match exceeds the budget; the last few sizes and costs. */
function backtracking(pattern: string, path: (n: number) => string): string {
  const re = new RegExp(pattern);
  const seen: string[] = [];
  for (let n = 16; n <= LONGEST; n += n < 40 ? 2 : n) {
    const cost = ms(() => re.test(path(n)));
    if (cost > 5) seen.push(`n=${n}: ${cost.toFixed(0)} ms`);
    if (cost > budgetMs) return seen.slice(-3).join(', ');
  }
  return seen.slice(-3).join(', ') || `< 5 ms up to n=${LONGEST}`;
}

function linear(pattern: string, path: (n: number) => string): string {
  const re = RE2JS.compile(pattern);
  for (let i = 0; i < 20; i++) re.matcher(path(LONGEST)).find(); // warm up
  const costs = [100, 1000, LONGEST].map((n) => {
    const runs = 20;
    const total = ms(() => {
      for (let i = 0; i < runs; i++) re.matcher(path(n)).find();
    });
    return `n=${n}: ${(total / runs).toFixed(3)} ms`;
  });
  return costs.join(', ');
}

/** Median round trip of a request for the hostile path with the pattern installed as a fault. */
async function roundTrip(url: string, pattern: string, path: (n: number) => string) {
  await emulatorControl(url, 'DELETE', '/_emulator/faults');
  await emulatorControl(url, 'POST', '/_emulator/faults', { path: pattern, status: 503 });
  const trips: number[] = [];
  for (let i = 0; i < requests; i++) {
    const start = performance.now();
    await (await fetch(`${url}${path(LONGEST)}`)).arrayBuffer();
    trips.push(performance.now() - start);
  }
  return trips.sort((a, b) => a - b)[Math.floor(trips.length / 2)]!;
}

// The round trips first: the backtracking runs below block for seconds, longer than the
// server's keep-alive, and a pooled connection it closed meanwhile would reset the next request.
const emulator = await startEmulator({ apiKey: 'bench-fault-patterns', admin: true });
const medians: number[] = [];
try {
  for (const [pattern, path] of CASES) medians.push(await roundTrip(emulator.url, pattern, path));
} finally {
  await emulator.close();
}
console.log('| pattern | backtracking RegExp | RE2JS | HTTP round trip, n=8000, median |');
console.log('|---|---|---|---|');
CASES.forEach(([pattern, path], i) => {
  const trip = `${medians[i]!.toFixed(2)} ms`;
  console.log(
    `| \`${pattern}\` | ${backtracking(pattern, path)} | ${linear(pattern, path)} | ${trip} |`,
  );
});

// What every request pays for a fault the suites install, on an ordinary path.
const ordinary = '/apis/paas.envmgmt.io/v1/projects/platform/workspaces/team-a/computeinstances';
const suite = '^/(apis|auth|v2)/.*';
const perMatch = (f: () => unknown) =>
  (ms(() => {
    for (let i = 0; i < 100_000; i++) f();
  }) *
    1000) /
  100_000;
const v8 = new RegExp(suite);
const re2 = RE2JS.compile(suite);
perMatch(() => re2.matcher(ordinary).find()); // warm up
console.log(
  `\n\`${suite}\` on a ${ordinary.length}-character path: RegExp ${perMatch(() => v8.test(ordinary)).toFixed(2)} µs, RE2JS ${perMatch(() => re2.matcher(ordinary).find()).toFixed(2)} µs a match`,
);
