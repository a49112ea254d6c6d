import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { systemClock } from '../../src/core/clock.js';
import { emulatorControl } from '../../src/emulator/admin/client.js';
import { startEmulator } from '../../src/emulator/index.js';
import type { Action } from '../../src/model/action.js';
import type { Manifest } from '../../src/model/manifest.js';
import { manifestKey } from '../../src/model/manifest.js';
import type { Provider, ProviderPorts } from '../../src/model/provider.js';
import { createApiClient } from '../../src/providers/client/api-client.js';
import { createProjectDirectory } from '../../src/providers/project-directory.js';
import { createProviderRegistry } from '../../src/providers/registry.js';
import {
  cluster,
  controllers,
  instance,
  loaded,
  publish,
  service,
  user,
  version,
  workspace,
} from './fixtures.js';

/**
 * The providers over real loopback HTTP against the emulator, with injected faults: a tiny
 * sequential observe → plan → execute loop stands in for the engine.
 */
const KEY = 'emulator-admin-key-0042';
type Emulator = Awaited<ReturnType<typeof startEmulator>>;
let emu: Emulator;
let ports: ProviderPorts;
const registry = createProviderRegistry();
const applied = new Map<string, Manifest>();

const GKE = {
  name: 'gke-1',
  project: 'acme-gcp',
  location: { type: 'zonal', zone: 'us-central1-a' },
  controlPlaneVersion: 1.29,
  network: { name: 'default', nodeSubnetName: 'default', networkAccess: { privacy: 'public' } },
  nodePools: [
    {
      name: 'pool',
      size: 3,
      nodeVersion: 1.29,
      machineConfig: {
        imageType: 'COS',
        machineType: 'e2-standard-4',
        bootDiskType: 'pd-standard',
        bootDiskSize: 100,
      },
    },
  ],
};
const inProject = <M extends Manifest>(m: M): M => ({
  ...m,
  metadata: { ...m.metadata, ...(m.metadata.project ? { project: 'platform' } : {}) },
});
const manifests = (term = '6'): Manifest[] => [
  user([{ id: 'grp-ml-researchers', name: 'ML Researchers' }]),
  inProject(service()),
  inProject(workspace()),
  inProject(instance(term, 'off')),
  inProject({
    ...cluster(),
    spec: { ...cluster().spec, blueprint: { name: 'ml-stack', version: 'v1.1.0' }, config: GKE },
  }),
  inProject(version(true)),
  inProject(publish('v1.1.0', ['prometheus'])),
];

async function control(method: string, path: string, body?: unknown) {
  const res = await emulatorControl(emu.url, method, path, body);
  return res.status === 204
    ? null
    : ((await res.json()) as {
        entries: { method: string; path: string; status: number; authHeader: string | null }[];
      });
}

/** Plans every manifest (and prunes `removed`), executes unless `dry`, returns "key type" lines. */
async function run(
  desired: Manifest[],
  { dry = false, removed = [] as Manifest[] } = {},
): Promise<string[]> {
  const done: string[] = [];
  for (const m of [...desired, ...removed]) {
    const provider = registry[m.kind] as Provider;
    const key = manifestKey(m);
    const prune = removed.includes(m);
    const scope = {
      desired: prune ? [] : [loaded(m)],
      inventory: [
        {
          kind: m.kind,
          name: m.metadata.name,
          project: m.metadata.project,
          workspace: m.metadata.workspace,
        },
      ],
      projects: ['platform'],
    };
    const [live] = await provider.observe(scope as never, ports);
    const input = { key, desired: prune ? undefined : m, live, lastApplied: applied.get(key) };
    for (const proposed of provider.plan(input as never)) {
      done.push(`${key} ${proposed.type}`);
      if (dry) continue;
      await provider.execute(
        { ...proposed, id: `${key}#${proposed.type}`, dependsOn: [] } as Action,
        ports,
      );
    }
    if (!dry) {
      if (prune) applied.delete(key);
      else applied.set(key, m);
    }
  }
  return done;
}

beforeAll(async () => {
  // The spec's dialect on both sides, whatever PLATCTL_DIALECT says: the test checks the spec's
  // header per endpoint (the other dialect's are test/e2e/request-shapes.test.ts, run on both).
  emu = await startEmulator({ apiKey: KEY, admin: true, clockSpeed: 2000, dialect: 'spec' });
  const api = createApiClient({
    baseUrl: emu.url,
    apiKey: KEY,
    dialect: 'spec',
    rps: 200,
    concurrency: 4,
    baseDelayMs: 5,
    maxDelayMs: 50,
    maxAttempts: 6,
    timeoutMs: 5_000,
  });
  ports = {
    api,
    clock: {
      now: () => Date.now(),
      sleep: (ms, signal) => systemClock.sleep(Math.min(ms, 50), signal),
    },
    signal: new AbortController().signal,
    progress: () => {},
    resolveSecret: async () => 'Alice-Passw0rd!',
    projectId: createProjectDirectory(api),
    wait: { pollMs: 50, timeoutMs: 20_000 },
  };
});
afterAll(async () => emu?.close());

// one scenario, each test starting from the platform the one before left: in order even when a
// run shuffles (`--sequence.shuffle`)
describe('providers against the emulator', { shuffle: false }, () => {
  it('apply through faults converges, with no duplicate create, and the right header per endpoint', async () => {
    await control('POST', '/_emulator/faults', {
      path: '^/apis/.*/services$',
      method: 'POST',
      drop: true,
      count: 2,
    });
    await control('POST', '/_emulator/faults', {
      path: '^/apis/.*/computeinstances$',
      method: 'POST',
      status: 503,
      count: 2,
    });
    await control('POST', '/_emulator/faults', {
      path: '^/auth/v1/.*',
      status: 429,
      retryAfter: 0,
      count: 3,
    });
    await run(manifests());
    expect(await run(manifests(), { dry: true })).toEqual([]);
    const journal = (await control('GET', '/_emulator/journal'))!.entries;
    const created = journal.filter((e) => e.method === 'POST' && e.status === 201);
    expect(new Set(created.map((e) => e.path)).size).toBe(created.length);
    expect(
      journal.filter((e) => e.method === 'POST' && e.path.endsWith('/services') && e.status === 0),
    ).toHaveLength(2);
    for (const e of journal.filter((x) => ![0, 429, 503].includes(x.status))) {
      expect([e.path, e.authHeader]).toEqual([
        e.path,
        e.path.includes('/v3/') ? 'x-api-key' : 'x-service-api-keyid',
      ]);
    }
  });

  it('one changed field updates only that resource', async () => {
    expect(await run(manifests('12'), { dry: true })).toEqual([
      'ComputeInstance/platform/dev/gpu-1 update',
      'ComputeInstance/platform/dev/gpu-1 publish',
      'ComputeInstance/platform/dev/gpu-1 power',
    ]);
    await run(manifests('12'));
    expect(await run(manifests('12'), { dry: true })).toEqual([]);
  });

  it('updates CAPI then CAPG on the ready cluster, then prunes an instance until gone', async () => {
    const ctl = inProject(controllers('v1.6.0', 'v1.7.0'));
    expect(await run([ctl])).toEqual([
      'ClusterControllers/platform/gke-1 controller-update',
      'ClusterControllers/platform/gke-1 controller-update',
    ]);
    const gpu = manifests('12')[3]!;
    expect(await run([], { removed: [gpu] })).toEqual([
      'ComputeInstance/platform/dev/gpu-1 delete',
    ]);
    expect(await run([gpu], { dry: true })).toEqual([
      'ComputeInstance/platform/dev/gpu-1 create',
      'ComputeInstance/platform/dev/gpu-1 publish',
      'ComputeInstance/platform/dev/gpu-1 power',
    ]);
  });

  it('a wrong key is a 401 that does not show the key', async () => {
    const api = createApiClient({
      baseUrl: emu.url,
      apiKey: 'wrong-key-abcdef-123',
      dialect: 'spec',
    });
    const err = (await api
      .request({
        method: 'GET',
        path: '/auth/v1/projects/',
        auth: 'identity',
        operation: 'listing projects',
      })
      .catch((e: unknown) => e)) as Error;
    expect(err.message).toMatch(/^401 listing projects: /);
    expect(err.message).not.toContain('wrong-key-abcdef-123');
  });
});
