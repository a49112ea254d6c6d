import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunningController } from '../../src/controller/controller.js';
import { postgresUrl, type TestSchema, testSchema } from '../helpers/postgres.js';
import { startForwarder, type TcpForwarder } from '../helpers/tcp-forwarder.js';
import { commitFiles } from './helpers/git-remote.js';
import { WORKSPACES, workspaceYaml } from './helpers/platform-yaml.js';
import { createStack, get, type Stack } from './helpers/stack.js';
import { until } from './helpers/until.js';

// Every platform write is fenced by a renew deadline held in memory: a leader cut off from its
// database (a loopback forwarder the test freezes: nothing passes, nothing is closed) stops
// sending before any other replica can take the lease, and says it is not ready at once.

let stack: Stack;
let schema: TestSchema;
let forwarder: TcpForwarder;
beforeEach(async () => {
  if (!postgresUrl) return;
  stack = await createStack();
  schema = await testSchema('fence');
  const db = new URL(postgresUrl);
  forwarder = await startForwarder({ host: db.hostname, port: Number(db.port || 5432) });
});
afterEach(async () => {
  // the cut-off leader's queries end with the forwarder's connections: then it can stop
  await forwarder?.close();
  await stack?.close();
  await schema?.drop();
});

const N = 40;
const names = Array.from({ length: N }, (_, i) => `ws-${String(i).padStart(2, '0')}`);
const isWrite = (e: { method: string; path: string }) =>
  e.method !== 'GET' && e.path.startsWith(WORKSPACES);

describe.skipIf(!postgresUrl)('a leader cut off from its database', () => {
  it('sends no platform write after its renew deadline, before the standby leads', async () => {
    // 40 workspaces exist with another description: the leader's run is 40 paced updates
    for (const name of names) {
      await stack.api('POST', WORKSPACES, {
        apiVersion: 'paas.envmgmt.io/v1',
        kind: 'Workspace',
        metadata: { name, project: 'platform', description: 'by hand' },
      });
    }
    commitFiles(
      stack.remote,
      Object.fromEntries(names.map((n) => [`platform/${n}.yaml`, workspaceYaml(n, 'from git')])),
      'forty',
    );
    const seeded = (await stack.journal()).length;
    const writes = async () => (await stack.journal()).slice(seeded).filter(isWrite);
    const throughForwarder = new URL(schema.url);
    throughForwarder.port = String(forwarder.port);
    const a: RunningController = await stack.controller({
      statePath: throughForwarder.toString(),
      leaseTtlMs: 3000,
      api: { baseUrl: stack.emulator.url, apiKey: 'emu-admin-key-5f3c9a1b7d', rps: 5 },
    });
    await until('a leads', () => a.status.role === 'leader', 30_000, 10);
    // the standby changes nothing on the platform: every write after it leads is a's
    const b = await stack.controller({ statePath: schema.url, leaseTtlMs: 3000, dryRun: true });
    await until('b stands by', () => b.status.role === 'standby', 30_000, 10);
    await until('a sent its first updates', async () => (await writes()).length >= 3, 30_000, 10);
    forwarder.freeze();
    const frozenAt = (await writes()).length;
    await until('b leads', () => b.status.role === 'leader', 30_000, 10);
    // a's deadline passed before b could take the lease: it already says so
    const ready = (await get(a, '/readyz')).status;
    const afterTakeover = (await stack.journal()).length;
    // more than a whole lease ttl later, still nothing from a
    await new Promise((r) => setTimeout(r, 2000));
    const entries = await stack.journal();
    const late = entries.slice(afterTakeover).filter(isWrite);
    const all = (await writes()).length;
    console.log(
      `updates before the cut: ${frozenAt}; in all: ${all}; after the takeover: ${late.length}`,
    );
    expect(late).toEqual([]);
    expect(ready).toBe(503);
    expect(all).toBeLessThan(N);
    expect(a.status.role).not.toBe('leader');
    // cut off from its database, it fails its liveness check too: a restart reconnects it
    expect((await get(a, '/healthz')).status).toBe(503);
  }, 90_000);
});
