/**
 * Import benchmark: `npx tsx bench/import.ts --objects 10000 [--rps 100] [--instances 0.2]`.
 *
 * Starts the emulator in its own process, creates N objects on it directly over HTTP (workspaces
 * spread over the seeded projects, a share of them compute instances, each in its own
 * workspace), then times `importPlatform` (the code behind `platctl import`) with the real API
 * client at the given rps. Workspaces come from list pages (1,000 per page); each instance needs
 * its own read, so requests ≈ pages + instances, and the wall time should be ≈ requests ÷ rps.
 * `--profile FILE` writes a CPU profile of the import alone (not the seeding) to FILE.
 */

import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import PQueue from 'p-queue';
import { systemClock } from '../src/core/clock.js';
import { importPlatform } from '../src/import/index.js';
import { createApiClient, createProviderRegistry } from '../src/providers/index.js';
import { startChildEmulator } from './child-emulator.js';
import { profiled } from './profiled.js';

const { values } = parseArgs({
  options: {
    objects: { type: 'string', default: '10000' },
    rps: { type: 'string', default: '100' },
    instances: { type: 'string', default: '0.2' },
    profile: { type: 'string' },
  },
});
const n = Number(values.objects);
const rps = Number(values.rps);
const instances = Math.round(n * Number(values.instances));
const PROJECTS = ['default', 'platform', 'ml-research'];

const apiKey = randomBytes(16).toString('hex');
const emulator = await startChildEmulator(apiKey);
const url = emulator.url;

// the platform: n - instances workspaces, each instance in its own (already counted) workspace
const paas = `${url}/apis/paas.envmgmt.io/v1/projects`;
const post = async (path: string, body: unknown) => {
  const res = await fetch(`${paas}/${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'x-service-api-keyid': apiKey },
    body: JSON.stringify(body),
  });
  if (res.status >= 300) throw new Error(`${path}: ${res.status} ${await res.text()}`);
};
const seeding = new PQueue({ concurrency: 32 });
const workspaces = n - instances;
const started = performance.now();
for (let i = 0; i < workspaces; i++) {
  const project = PROJECTS[i % PROJECTS.length]!;
  void seeding.add(async () => {
    await post(`${project}/workspaces`, {
      apiVersion: 'paas.envmgmt.io/v1',
      kind: 'Workspace',
      metadata: { name: `ws-${i}`, project },
    });
    if (i < instances) {
      await post(`${project}/workspaces/ws-${i}/computeinstances`, {
        apiVersion: 'paas.envmgmt.io/v1',
        kind: 'ComputeInstance',
        metadata: { name: `gpu-${i}`, project, workspace: `ws-${i}` },
        spec: {
          computeType: 'baremetal',
          computeProfile: { name: 'bmaas-h100', systemCatalog: true },
          variables: [{ name: 'Contract Term', valueType: 'text', value: '1' }],
        },
      });
    }
  });
}
await seeding.onIdle();
const seedSeconds = (performance.now() - started) / 1000;

let requests = 0;
const api = createApiClient({
  baseUrl: url,
  apiKey,
  clock: systemClock,
  rps,
  concurrency: 16,
  onRequest: () => {
    requests++;
    sent.push(performance.now());
  },
});
/** When each request was sent: where the wall time beyond requests ÷ rps went. */
const sent: number[] = [];
const out = mkdtempSync(join(tmpdir(), 'platctl-bench-import-'));
const t0 = performance.now();
const cpu = process.cpuUsage();
const result = await profiled(values.profile, () =>
  importPlatform(
    { scope: { kinds: ['Workspace', 'ComputeInstance'] }, outDir: join(out, 'm') },
    { api, providers: createProviderRegistry(), clock: systemClock },
  ),
);
const seconds = (performance.now() - t0) / 1000;
// the longest pauses between two requests, and the rate between the first and the last request
const gaps = sent
  .slice(1)
  .map((t, i) => ({ at: (sent[i]! - t0) / 1000, ms: t - sent[i]! }))
  .sort((a, b) => b.ms - a.ms)
  .slice(0, 3);
const span = ((sent.at(-1) ?? t0) - (sent[0] ?? t0)) / 1000;
const used = process.cpuUsage(cpu);
emulator.close();
rmSync(out, { recursive: true, force: true });

const imported = Object.values(result.counts).reduce((a, b) => a + b, 0);
console.log(
  `seeded ${n} objects (${workspaces} workspaces, ${instances} instances) in ${seedSeconds.toFixed(1)} s\n`,
);
console.log(
  `first request ${(((sent[0] ?? t0) - t0) / 1000).toFixed(2)} s in, last ${(((sent.at(-1) ?? t0) - t0) / 1000).toFixed(2)} s (${(sent.length / Math.max(span, 1e-9)).toFixed(0)} requests/s between); longest pauses: ${gaps.map((g) => `${g.ms.toFixed(0)} ms at ${g.at.toFixed(1)} s`).join(', ')}\n`,
);
console.log(
  '| objects | instances | rps | imported | requests | requests ÷ rps | wall time | CPU | peak RSS |',
);
console.log('|---|---|---|---|---|---|---|---|---|');
console.log(
  `| ${n} | ${instances} | ${rps} | ${imported} | ${requests} | ${(requests / rps).toFixed(1)} s | ${seconds.toFixed(1)} s | ${((used.user + used.system) / 1e6).toFixed(1)} s | ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB |`,
);
