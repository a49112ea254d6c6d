/**
 * Emulator benchmark: `npx tsx bench/emulator-list.ts [--instances 10000] [--requests 2000]
 * [--limit 50] [--connections 8]`, or `node --expose-gc --import tsx bench/emulator-list.ts
 * --in-process ...` for the memory an object costs.
 *
 * Starts the emulator in its own process on a loopback port, creates one workspace and N compute
 * instances in project `platform` over HTTP (reporting the create rate, which shows whether a
 * create's cost grows with the collection), then sends a bounded number of list requests for
 * pages spread over the whole list, over a few keep-alive connections, and reports requests per
 * second, p50/p99 latency and the emulator process's CPU, with the load average beside them.
 * The emulator's CPU per create is over the last 1,000 creates (the collection at its largest).
 * `--limit` takes several sizes (`50,1000`: 1000 is the engine's page), each its own row.
 * `--profile DIR` writes the emulator's CPU profile there. `--in-process` runs the emulator in
 * this process instead, so that (with `--expose-gc`) the heap after a full collection before and
 * after the creates gives the memory each object holds, beside the size of its JSON as a list
 * returns it; its CPU figures then include the load generator's.
 */

import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { startEmulator } from '../src/emulator/index.js';
import { startChildEmulator } from './child-emulator.js';

const { values } = parseArgs({
  options: {
    instances: { type: 'string', default: '10000' },
    requests: { type: 'string', default: '2000' },
    limit: { type: 'string', default: '50' },
    connections: { type: 'string', default: '8' },
    /** Write the emulator's CPU profile (`node --cpu-prof`) into this directory. */
    profile: { type: 'string' },
    'in-process': { type: 'boolean', default: false },
  },
});
const n = Number(values.instances);
const total = Number(values.requests);
const limits = values.limit.split(',').map(Number);
const connections = Number(values.connections);

const apiKey = randomBytes(16).toString('hex');
const inProcess = values['in-process'] === true;
const gc = (globalThis as { gc?: () => void }).gc;
if (inProcess && !gc) throw new Error('--in-process measures memory: run node with --expose-gc');
const emulator = inProcess
  ? await inProcessEmulator()
  : await startChildEmulator(
      apiKey,
      values.profile ? ['--cpu-prof', `--cpu-prof-dir=${values.profile}`] : [],
    );
async function inProcessEmulator() {
  const emu = await startEmulator({ apiKey, port: 0 });
  const cpuSeconds = () => {
    const u = process.cpuUsage();
    return (u.user + u.system) / 1e6;
  };
  return { url: emu.url, cpuSeconds, close: () => void emu.close() };
}
/** The heap after a full collection, in bytes (in-process only). */
const heapAfterGc = () => {
  gc?.();
  return process.memoryUsage().heapUsed;
};
const url = emulator.url;
const emulatorCpu = emulator.cpuSeconds;

const headers = { 'content-type': 'application/json', 'X-API-KEY': apiKey };
const base = `${url}/apis/paas.envmgmt.io/v1/projects/platform`;
async function call(method: string, path: string, body?: unknown): Promise<number> {
  const res = await fetch(base + path, {
    method,
    headers,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  if (res.status >= 300) throw new Error(`${method} ${path}: ${res.status} ${text}`);
  return res.status;
}

/** Runs `count` tasks over `width` concurrent workers; returns each task's latency in ms. */
async function pool(count: number, width: number, task: (i: number) => Promise<unknown>) {
  const latencies: number[] = [];
  let next = 0;
  const worker = async () => {
    while (next < count) {
      const i = next++;
      const t = performance.now();
      await task(i);
      latencies.push(performance.now() - t);
    }
  };
  await Promise.all(Array.from({ length: width }, worker));
  return latencies;
}

try {
  const envelope = (kind: string) => ({ apiVersion: 'paas.envmgmt.io/v1', kind });
  await call('POST', '/workspaces', {
    ...envelope('Workspace'),
    metadata: { name: 'bench', project: 'platform' },
  });
  const instance = (i: number) => ({
    ...envelope('ComputeInstance'),
    metadata: { name: `vm-${i}`, project: 'platform', workspace: 'bench' },
    spec: { computeType: 'baremetal', computeProfile: { name: 'bmaas-h100', systemCatalog: true } },
  });
  const rate = async (from: number, to: number) => {
    const t = performance.now();
    const cpu0 = emulatorCpu();
    await pool(to - from, connections, (i) =>
      call('POST', '/workspaces/bench/computeinstances', instance(from + i)),
    );
    const perSecond = ((to - from) / (performance.now() - t)) * 1000;
    return { perSecond, cpuMs: ((emulatorCpu() - cpu0) / (to - from)) * 1000 };
  };
  const heap0 = inProcess ? heapAfterGc() : 0;
  const first = await rate(0, Math.min(1000, n));
  let last = first;
  for (let from = 1000; from < n; from += 1000) last = await rate(from, Math.min(n, from + 1000));
  const heapPerObject = inProcess ? (heapAfterGc() - heap0) / n : Number.NaN;
  // the JSON of an object as a list hands it out, averaged over one page
  const sample = (await (
    await fetch(`${base}/computeinstances?computeType=baremetal&limit=100`, { headers })
  ).json()) as { items: unknown[] };
  const jsonBytes =
    sample.items.reduce<number>((sum, item) => sum + Buffer.byteLength(JSON.stringify(item)), 0) /
    sample.items.length;
  console.log(
    `emulator ${inProcess ? 'in this process (CPU figures include the load generator)' : 'in its own process'}; ${n} instances; creates/s first 1,000: ${first.perSecond.toFixed(0)} (${first.cpuMs.toFixed(2)} ms CPU each), last 1,000: ${last.perSecond.toFixed(0)} (${last.cpuMs.toFixed(3)} ms CPU each)`,
  );
  if (inProcess) {
    console.log(
      `heap per object after a full collection: ${heapPerObject.toFixed(0)} B; its JSON: ${jsonBytes.toFixed(0)} B; beyond the JSON: ${(heapPerObject - jsonBytes).toFixed(0)} B`,
    );
  }
  console.log(
    '| instances | list requests | limit | req/s | p50 | p99 | emulator CPU per list | load (1 min) |',
  );
  console.log('|---|---|---|---|---|---|---|---|');
  for (const limit of limits) {
    const cpu0 = emulatorCpu();
    const t0 = performance.now();
    const pages = Math.max(1, Math.ceil(n / limit));
    const latencies = await pool(total, connections, (i) =>
      call(
        'GET',
        `/computeinstances?computeType=baremetal&limit=${limit}&offset=${(i % pages) * limit}`,
      ),
    );
    const seconds = (performance.now() - t0) / 1000;
    const cpu = emulatorCpu() - cpu0;
    latencies.sort((a, b) => a - b);
    const pct = (p: number) =>
      latencies[Math.min(latencies.length - 1, Math.floor(p * latencies.length))]!;
    console.log(
      `| ${n} | ${total} | ${limit} | ${(total / seconds).toFixed(0)} | ${pct(0.5).toFixed(1)} ms | ${pct(0.99).toFixed(1)} ms | ${((cpu / total) * 1000).toFixed(2)} ms | ${loadavg()[0]!.toFixed(1)} |`,
    );
  }
} finally {
  emulator.close();
}
