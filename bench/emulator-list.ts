/**
 * Emulator benchmark: `npx tsx bench/emulator-list.ts [--instances 10000] [--requests 2000]
 * [--limit 50] [--connections 8]`.
 *
 * Starts the emulator in its own process on a loopback port, creates one workspace and N compute
 * instances in project `platform` over HTTP (reporting the create rate, which shows whether a
 * create's cost grows with the collection), then sends a bounded number of list requests for
 * pages spread over the whole list, over a few keep-alive connections, and reports requests per
 * second, p50/p99 latency and the emulator process's CPU, with the load average beside them.
 * `--profile DIR` writes the emulator's CPU profile there.
 */

import { randomBytes } from 'node:crypto';
import { loadavg } from 'node:os';
import { parseArgs } from 'node:util';
import { startChildEmulator } from './child-emulator.js';

const { values } = parseArgs({
  options: {
    instances: { type: 'string', default: '10000' },
    requests: { type: 'string', default: '2000' },
    limit: { type: 'string', default: '50' },
    connections: { type: 'string', default: '8' },
    /** Write the emulator's CPU profile (`node --cpu-prof`) into this directory. */
    profile: { type: 'string' },
  },
});
const n = Number(values.instances);
const total = Number(values.requests);
const limit = Number(values.limit);
const connections = Number(values.connections);

const apiKey = randomBytes(16).toString('hex');
const emulator = await startChildEmulator(
  apiKey,
  values.profile ? ['--cpu-prof', `--cpu-prof-dir=${values.profile}`] : [],
);
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
    await pool(to - from, connections, (i) =>
      call('POST', '/workspaces/bench/computeinstances', instance(from + i)),
    );
    return ((to - from) / (performance.now() - t)) * 1000;
  };
  const firstRate = await rate(0, Math.min(1000, n));
  let lastRate = firstRate;
  for (let from = 1000; from < n; from += 1000)
    lastRate = await rate(from, Math.min(n, from + 1000));

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
    '| instances | creates/s (first 1,000) | creates/s (last 1,000) | list requests | limit | req/s | p50 | p99 | emulator CPU per list | load (1 min) |',
  );
  console.log('|---|---|---|---|---|---|---|---|---|---|');
  console.log(
    `| ${n} | ${firstRate.toFixed(0)} | ${lastRate.toFixed(0)} | ${total} | ${limit} | ${(total / seconds).toFixed(0)} | ${pct(0.5).toFixed(1)} ms | ${pct(0.99).toFixed(1)} ms | ${((cpu / total) * 1000).toFixed(2)} ms | ${loadavg()[0]!.toFixed(1)} |`,
  );
} finally {
  emulator.close();
}
