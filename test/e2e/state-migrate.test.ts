import { randomBytes } from 'node:crypto';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../src/emulator/index.js';
import { openState } from '../../src/state/index.js';
import type { StateStore } from '../../src/state/types.js';
import { runCli } from '../helpers/cli.js';
import { postgresUrl, type TestSchema, testSchema } from '../helpers/postgres.js';
import { EXAMPLES, INSTANT } from './harness.js';

const apiKey = randomBytes(16).toString('hex');

/** Everything a store holds, for comparing two of them. */
async function contents(store: StateStore) {
  return {
    inventory: await store.inventory(),
    lastApplied: [...(await store.lastApplied())],
    pending: await store.pending(),
    outcomes: await store.outcomes(),
  };
}

describe.skipIf(!postgresUrl)('platctl state migrate, SQLite to PostgreSQL', () => {
  let emulator: RunningEmulator;
  let schema: TestSchema;
  let dir: string;
  let env: Record<string, string>;
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, apiKey, admin: true, transitionSeconds: INSTANT });
    schema = await testSchema('migrate');
    dir = mkdtempSync(join(tmpdir(), 'platctl-migrate-'));
    env = {
      PLATCTL_BASE_URL: emulator.url,
      PLATCTL_API_KEY: apiKey,
      PLATCTL_DEMO_PASSWORD: `Pw-${randomBytes(6).toString('hex')}`,
    };
  });
  afterAll(async () => {
    await emulator?.close();
    await schema?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('moves every record: the same plan before and after, and a second migrate is refused', async () => {
    const sqlite = join(dir, 'state.db');
    for (let i = 0; i < 2; i++) {
      const r = await runCli(['apply', EXAMPLES, '--state', sqlite, '--auto-approve'], { env });
      expect(r.code, r.stderr).toBe(0);
    }
    // a plan that reads the inventory: one file gone, so --prune plans deletions
    const manifests = join(dir, 'manifests');
    cpSync(EXAMPLES, manifests, { recursive: true });
    rmSync(join(manifests, '20-ml-research.yaml'));
    const plan = (state: Record<string, string>) =>
      runCli(['plan', manifests, '--prune', '--force-deletes', '-o', 'json'], {
        env: { ...env, ...state },
      });
    const before = await plan({ PLATCTL_STATE_URL: sqlite });
    expect(before.code, before.stderr).toBe(0);
    expect(
      JSON.parse(before.stdout).actions.some((a: { type: string }) => a.type === 'delete'),
    ).toBe(true);

    const migrate = await runCli(['state', 'migrate', '--from', sqlite], {
      env: { ...env, PLATCTL_STATE_URL: schema.url },
    });
    expect(migrate.code, migrate.stderr).toBe(0);
    expect(migrate.stdout).toMatch(/^Copied \d+ managed resources, \d+ last-applied manifests/);

    const after = await plan({ PLATCTL_STATE_URL: schema.url });
    expect(after.code, after.stderr).toBe(0);
    expect(after.stdout).toBe(before.stdout);
    const [a, b] = [await openState(sqlite), await openState(schema.url)];
    try {
      expect(await contents(b)).toEqual(await contents(a));
      expect((await b.outcomes()).length).toBeGreaterThan(0);
    } finally {
      await a.close();
      await b.close();
    }

    const again = await runCli(['state', 'migrate', '--from', sqlite], {
      env: { ...env, PLATCTL_STATE_URL: schema.url },
    });
    expect(again.code).not.toBe(0);
    expect(again.stderr).toMatch(/already holds state/);
  }, 180_000);

  it('refuses to copy a store something holds, advising only what it accepts', async () => {
    const held = await openState(schema.url);
    const lease = await held.acquire({
      holder: { id: 'controller:pod-a:7:x', pid: 7, host: 'pod-a' },
    });
    try {
      const sqlite = join(dir, 'empty.db');
      await (await openState(sqlite)).close();
      const r = await runCli(['state', 'migrate', '--from', schema.url, '--to', sqlite], { env });
      expect(r.code).not.toBe(0);
      expect(r.stderr).toMatch(/locked by .*pid 7 on pod-a/);
      expect(r.stderr).toMatch(/stop it/);
      // the advice names only what this command accepts
      const advised = r.stderr.match(/--[a-z-]+/g) ?? [];
      const help = await runCli(['state', 'migrate', '--help'], { env });
      for (const flag of advised) expect(help.stdout, flag).toContain(flag);
    } finally {
      await lease.release();
      await held.close();
    }
  }, 60_000);
});
