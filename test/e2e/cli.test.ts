import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../src/emulator/index.js';
import { openStateStore } from '../../src/state/index.js';
import { runCli } from '../helpers/cli.js';
import { EXAMPLES, INSTANT } from './harness.js';

const apiKey = randomBytes(16).toString('hex');
const password = `Pw-${randomBytes(8).toString('hex')}`;
let emulator: RunningEmulator;
let dir: string;
let env: Record<string, string>;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, apiKey, admin: true, transitionSeconds: INSTANT });
  dir = mkdtempSync(join(tmpdir(), 'platctl-cli-'));
  env = {
    PLATCTL_BASE_URL: emulator.url,
    PLATCTL_API_KEY: apiKey,
    PLATCTL_DEMO_PASSWORD: password,
  };
});
afterAll(async () => {
  await emulator.close();
  rmSync(dir, { recursive: true, force: true });
});

const state = () => join(dir, 'state.db');
const noSecret = (text: string) => {
  expect(text).not.toContain(apiKey);
  expect(text).not.toContain(password);
};

describe('platctl plan and apply through the real CLI', () => {
  it('plans with --detailed-exitcode 2, applies, then plans with exit 0 and "No changes."', async () => {
    const plan = await runCli(['plan', EXAMPLES, '--state', state(), '--detailed-exitcode'], {
      env,
    });
    expect(plan.stderr).toBe('');
    expect(plan.code).toBe(2);
    expect(plan.stdout).toMatch(/^Plan: 18 to create, 0 to update, 0 to delete, 0 unchanged\./);
    noSecret(plan.stdout + plan.stderr);

    for (let i = 0; i < 2; i++) {
      const apply = await runCli(['apply', EXAMPLES, '--state', state(), '--auto-approve'], {
        env,
      });
      expect(apply.code, apply.stderr).toBe(0);
      noSecret(apply.stdout + apply.stderr);
    }
    const again = await runCli(['plan', EXAMPLES, '--state', state(), '--detailed-exitcode'], {
      env,
    });
    expect(again.code).toBe(0);
    expect(again.stdout).toMatch(/^No changes\./);
  }, 90_000);

  it('prints the plan as stable JSON and as markdown', async () => {
    const json = await runCli(['plan', EXAMPLES, '--state', state(), '-o', 'json'], { env });
    const doc = JSON.parse(json.stdout);
    expect(doc.formatVersion).toBe(1);
    expect(Object.keys(doc.summary)).toEqual(['create', 'update', 'delete', 'unchanged']);
    const md = await runCli(['plan', EXAMPLES, '--state', state(), '-o', 'markdown'], { env });
    expect(md.stdout).toMatch(/^### platctl plan/);
  });

  it('writes one JSON document with the outcomes for apply -o json', async () => {
    const r = await runCli(
      ['apply', EXAMPLES, '--state', join(dir, 'json.db'), '--auto-approve', '-o', 'json'],
      { env },
    );
    expect(r.code, r.stderr).toBe(0);
    const doc = JSON.parse(r.stdout);
    expect(doc.formatVersion).toBe(1);
    expect(
      Object.values(doc.outcomes).every((o) => (o as { status: string }).status === 'succeeded'),
    ).toBe(true);
    noSecret(r.stdout + r.stderr);
  });

  it('refuses to apply without --auto-approve when not on a terminal', async () => {
    const scratch = join(dir, 'other.db');
    const r = await runCli(['apply', EXAMPLES, '--state', scratch], { env });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/pass --auto-approve/);
  });

  it('fails a second apply with a message naming the lock holder', async () => {
    const store = openStateStore(state());
    const lease = await store.acquire({
      holder: { id: 'other', pid: 4242, host: 'ci-runner' },
      heartbeat: false,
    });
    try {
      const r = await runCli(['apply', EXAMPLES, '--state', state(), '--auto-approve'], { env });
      expect(r.code).toBe(1);
      expect(r.stderr).toMatch(
        /locked by another apply or controller: pid 4242 on ci-runner since/,
      );
    } finally {
      await lease.release();
      await store.close();
    }
  });

  it('prints diagnostics and exits 1 for invalid manifests', async () => {
    const r = await runCli(['apply', '-', '--state', state(), '--auto-approve'], {
      env,
      input: 'kind: Nope\n',
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/nothing was sent to the platform/);
  });
});
