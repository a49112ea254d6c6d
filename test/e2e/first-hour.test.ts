import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../src/emulator/index.js';
import { runCli } from '../helpers/cli.js';
import { EXAMPLES, INSTANT } from './harness.js';

// What a newcomer meets in the first hour, through the real CLI against the emulator.
const apiKey = randomBytes(16).toString('hex');
let emulator: RunningEmulator;
let dir: string;
let env: Record<string, string>;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, apiKey, admin: true, transitionSeconds: INSTANT });
  dir = mkdtempSync(join(tmpdir(), 'platctl-first-hour-'));
  env = {
    PLATCTL_BASE_URL: emulator.url,
    PLATCTL_API_KEY: apiKey,
    PLATCTL_DEMO_PASSWORD: `Pw-${randomBytes(8).toString('hex')}`,
  };
});
afterAll(async () => {
  await emulator.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('an empty directory', () => {
  it('warns in plan, and the prune guard counts what the plan deletes', async () => {
    const state = join(dir, 'empty.db');
    const empty = join(dir, 'empty');
    mkdirSync(empty);
    const fresh = await runCli(['plan', empty, '--state', state], { env });
    expect(fresh.code).toBe(0);
    expect(fresh.stderr).toMatch(/warning.*no manifests/i);

    const applied = await runCli(['apply', EXAMPLES, '--state', state, '--auto-approve'], {
      env,
      timeoutMs: 90_000,
    });
    expect(applied.code, applied.stderr).toBe(0);
    const pruned = await runCli(['plan', empty, '--state', state, '--prune'], { env });
    expect(pruned.code).toBe(1);
    expect(pruned.stderr).toMatch(/warning.*no manifests/i);
    const deletes = Number(/(\d+) to delete/.exec(pruned.stdout)?.[1]);
    expect(deletes).toBeGreaterThan(5);
    const guarded = Number(/(\d+) resources would be pruned/.exec(pruned.stdout)?.[1]);
    expect(guarded).toBe(deletes);
  }, 120_000);
});

describe('errors that lead somewhere', () => {
  const noKey = () => ({
    PLATCTL_BASE_URL: emulator.url,
    PLATCTL_API_KEY: undefined,
    HOME: dir,
    XDG_CONFIG_HOME: join(dir, 'no-config'),
  });

  it('names the flag that exists when the key is missing', async () => {
    const r = await runCli(['plan', EXAMPLES], { env: noKey() });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('--api-key-file');
    expect(r.stderr).not.toMatch(/--api-key(?!-file)/);
  });

  it('names the address it tried when the platform cannot be reached', async () => {
    const r = await runCli(['plan', EXAMPLES, '--base-url', 'http://127.0.0.1:9'], {
      env: { ...env, PLATCTL_BASE_URL: undefined },
      timeoutMs: 120_000,
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('http://127.0.0.1:9');
  }, 120_000);

  it('says which port is busy and what to do, not a bare EADDRINUSE', async () => {
    const port = new URL(emulator.url).port;
    const r = await runCli(['emulator', '--port', port], {
      env: { PLATCTL_EMULATOR_API_KEY: 'k'.repeat(16) },
    });
    expect(r.code).toBe(1);
    expect(r.stderr).not.toContain('Error: listen');
    expect(r.stderr).toMatch(new RegExp(`127\\.0\\.0\\.1:${port} is already in use.*--port`));
  });

  it('names the API group a wrong apiVersion should have', async () => {
    const r = await runCli(['validate', '-'], {
      input: 'apiVersion: v1\nkind: Workspace\nmetadata:\n  name: a\n  project: p\n',
    });
    expect(r.code).toBe(1);
    expect(r.stdout + r.stderr).toContain(
      'Workspace must have apiVersion paas.envmgmt.io/v1, not v1',
    );
  });

  it('answers a usage error with the error and where help is, not the whole help', async () => {
    const r = await runCli(['plan']);
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/missing required argument 'paths'/);
    expect(r.stderr).toContain('platctl plan --help');
    expect(r.stderr).not.toContain('Options:');
  });
});
