import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../src/emulator/index.js';
import { runCli } from '../helpers/cli.js';
import { EXAMPLES, FAST } from './harness.js';

// What a newcomer meets in the first hour, through the real CLI against the emulator.
const apiKey = randomBytes(16).toString('hex');
let emulator: RunningEmulator;
let dir: string;
let env: Record<string, string>;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, apiKey, admin: true, transitionSeconds: FAST });
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
