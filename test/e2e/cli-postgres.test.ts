import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../src/emulator/index.js';
import { openState } from '../../src/state/index.js';
import { runCli } from '../helpers/cli.js';
import { postgresUrl, type TestSchema, testSchema } from '../helpers/postgres.js';
import { EXAMPLES, INSTANT } from './harness.js';

const apiKey = randomBytes(16).toString('hex');
const password = `Pw-${randomBytes(8).toString('hex')}`;

describe.skipIf(!postgresUrl)('platctl plan and apply on PostgreSQL state', () => {
  let emulator: RunningEmulator;
  let schema: TestSchema;
  let env: Record<string, string>;
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, apiKey, admin: true, transitionSeconds: INSTANT });
    schema = await testSchema('cli');
    env = {
      PLATCTL_BASE_URL: emulator.url,
      PLATCTL_API_KEY: apiKey,
      PLATCTL_DEMO_PASSWORD: password,
      PLATCTL_STATE_URL: schema.url,
    };
  });
  afterAll(async () => {
    await emulator?.close();
    await schema?.drop();
  });

  it('applies with the URL from PLATCTL_STATE_URL, then plans "No changes."', async () => {
    // twice, as on SQLite: cluster controllers are set once the cluster the first run made is up
    for (let i = 0; i < 2; i++) {
      const apply = await runCli(['apply', EXAMPLES, '--auto-approve'], { env });
      expect(apply.code, apply.stderr).toBe(0);
    }
    const again = await runCli(['plan', EXAMPLES, '--detailed-exitcode'], { env });
    expect(again.code, again.stdout).toBe(0);
    expect(again.stdout).toMatch(/^No changes\./);
    const store = await openState(schema.url);
    try {
      expect((await store.inventory()).length).toBeGreaterThan(10);
    } finally {
      await store.close();
    }
  }, 120_000);

  it('names the holder when the store is locked', async () => {
    const store = await openState(schema.url);
    await store.acquire({
      holder: { id: 'other', pid: 4242, host: 'ci-runner' },
      runId: 'run-42',
      heartbeat: false,
    });
    try {
      const r = await runCli(['apply', EXAMPLES, '--auto-approve'], { env });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(
        /locked by another apply or controller: pid 4242 on ci-runner since/,
      );
      expect(r.stderr).toMatch(/run-42/);
    } finally {
      await store.close();
    }
  }, 60_000);

  it('refuses a password in --state and never prints it', async () => {
    const secret = `Db-${randomBytes(6).toString('hex')}`;
    const url = `postgres://platctl:${secret}@127.0.0.1:5432/test`;
    const r = await runCli(['plan', EXAMPLES, '--state', url], { env });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(/PLATCTL_STATE_URL/);
    expect(r.stderr).toContain('postgres://platctl:***@127.0.0.1:5432/test');
    expect(r.stdout + r.stderr).not.toContain(secret);
  });

  it('never prints the password of PLATCTL_STATE_URL when the server refuses', async () => {
    const secret = `Db-${randomBytes(6).toString('hex')}`;
    const r = await runCli(['apply', EXAMPLES, '--auto-approve'], {
      env: { ...env, PLATCTL_STATE_URL: `postgres://platctl:${secret}@127.0.0.1:1/test` },
    });
    expect(r.code).not.toBe(0);
    expect(r.stderr).toMatch(
      /cannot open the state store postgres:\/\/platctl:\*\*\*@127\.0\.0\.1:1/,
    );
    expect(r.stdout + r.stderr).not.toContain(secret);
  });
});
