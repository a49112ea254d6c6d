import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../src/emulator/index.js';
import { postgresUrl, type TestSchema, testSchema } from '../helpers/postgres.js';
import { type LineProcess, spawnPlatctl } from '../helpers/process.js';
import { workspaceYaml } from './helpers/platform-yaml.js';
import { API_KEY } from './helpers/stack.js';

describe.skipIf(!postgresUrl)('controller replicas on PostgreSQL (real processes)', () => {
  let emulator: RunningEmulator;
  let schema: TestSchema;
  let dir: string;
  const replicas: LineProcess[] = [];
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, apiKey: API_KEY, admin: true });
    schema = await testSchema('ha');
    dir = mkdtempSync(join(tmpdir(), 'platctl-ha-'));
    mkdirSync(join(dir, 'manifests'));
    writeFileSync(join(dir, 'manifests', 'ws.yaml'), workspaceYaml('ws-ha', 'high availability'));
  });
  afterAll(async () => {
    for (const r of replicas) r.child.kill('SIGKILL');
    await emulator?.close();
    await schema?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  const replica = (name: string) => {
    const r = spawnPlatctl(
      [
        'controller',
        '--watch',
        join(dir, 'manifests'),
        '--listen',
        '127.0.0.1:0',
        '--cache-dir',
        join(dir, name),
      ],
      {
        PLATCTL_BASE_URL: emulator.url,
        PLATCTL_API_KEY: API_KEY,
        PLATCTL_STATE_URL: schema.url,
      },
    );
    replicas.push(r);
    return r;
  };

  // how soon the standby leads is measured by bench/failover.ts, not asserted here (shared machines)
  it('one replica leads; after kill -9 of the leader a standby leads', async () => {
    const a = replica('a');
    await a.waitFor(/"event":"leader"/);
    await a
      .waitFor(/"event":"step".*"result":"succeeded"|run succeeded|"applied"/, 0, 30_000)
      .catch(() => undefined);
    const b = replica('b');
    await b.waitFor(/"event":"standby"/);
    await new Promise((r) => setTimeout(r, 1500)); // a few lease polls: b must stay standby
    expect(b.lines.filter((l) => /"event":"(leader|run-start)"/.test(l))).toEqual([]);
    const from = b.lines.length;
    a.child.kill('SIGKILL');
    await b.waitFor(/"event":"leader"/, from, 30_000);
    await b.waitFor(/"event":"run-end".*"result":"succeeded"/, from);
  }, 90_000);
});
