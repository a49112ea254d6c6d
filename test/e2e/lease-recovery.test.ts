import { spawn } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emulatorControl } from '../../src/emulator/admin/client.js';
import { type RunningEmulator, startEmulator } from '../../src/emulator/index.js';
import { openStateStore } from '../../src/state/index.js';
import { runCli } from '../helpers/cli.js';
import { keyHeaders } from '../helpers/key-header.js';
import { PLATCTL_JS } from '../helpers/platctl-bin.js';
import { FAST } from './harness.js';

const apiKey = randomBytes(16).toString('hex');
const bin = PLATCTL_JS;
let emulator: RunningEmulator;
let dir: string;
let env: Record<string, string>;
let manifests: string;

beforeAll(async () => {
  emulator = await startEmulator({ port: 0, apiKey, admin: true, transitionSeconds: FAST });
  dir = mkdtempSync(join(tmpdir(), 'platctl-lease-'));
  env = { PLATCTL_BASE_URL: emulator.url, PLATCTL_API_KEY: apiKey };
  manifests = join(dir, 'm');
  mkdirSync(manifests);
  for (const name of ['alpha', 'beta', 'gamma']) {
    writeFileSync(
      join(manifests, `${name}.yaml`),
      `apiVersion: paas.envmgmt.io/v1\nkind: Workspace\nmetadata:\n  name: ${name}\n  project: platform\n`,
    );
  }
});
afterAll(async () => {
  await emulator.close();
  rmSync(dir, { recursive: true, force: true });
});

async function holder(state: string) {
  const store = openStateStore(state);
  try {
    return await store.leaseHolder();
  } finally {
    await store.close();
  }
}

describe('an apply killed with -9', () => {
  it('leaves a lease the next apply takes over at once, with nothing created twice', async () => {
    const state = join(dir, 'killed.db');
    await emulatorControl(emulator.url, 'POST', '/_emulator/faults', {
      path: '^/apis/.*/workspaces$',
      method: 'POST',
      latencyMs: 5000,
    });
    const child = spawn(
      process.execPath,
      [bin, 'apply', manifests, '--state', state, '--auto-approve'],
      { env: { ...process.env, ...env, NO_COLOR: '1' }, stdio: 'ignore' },
    );
    const exited = new Promise((r) => child.on('exit', r));
    // wait until it holds the lease and a create is in flight, then kill it without warning
    for (let i = 0; i < 400 && (await holder(state))?.pid !== child.pid; i++) {
      await new Promise((r) => setTimeout(r, 50));
    }
    expect((await holder(state))?.pid).toBe(child.pid);
    await new Promise((r) => setTimeout(r, 500));
    child.kill('SIGKILL');
    await exited;
    await emulatorControl(emulator.url, 'DELETE', '/_emulator/faults');

    const next = await runCli(['apply', manifests, '--state', state, '--auto-approve'], { env });
    expect(next.stderr).not.toMatch(/locked/);
    expect(next.code, next.stdout + next.stderr).toBe(0);
    const again = await runCli(['plan', manifests, '--state', state, '--detailed-exitcode'], {
      env,
    });
    expect(again.code).toBe(0);
    const list = (await (
      await fetch(`${emulator.url}/apis/paas.envmgmt.io/v1/projects/platform/workspaces`, {
        headers: { ...keyHeaders(apiKey) },
      })
    ).json()) as { items: { metadata: { name: string } }[] };
    const names = list.items.map((i) => i.metadata.name).sort();
    expect(names.filter((n) => ['alpha', 'beta', 'gamma'].includes(n))).toEqual([
      'alpha',
      'beta',
      'gamma',
    ]);
  }, 120_000);
});

describe('platctl state unlock', () => {
  it('shows a holder that cannot be proven dead, and breaks its lease given its id', async () => {
    const state = join(dir, 'remote.db');
    const store = openStateStore(state);
    await store.acquire({
      holder: { id: 'apply:ci-runner-3:4242:x', pid: 4242, host: 'ci-runner-3' },
      heartbeat: false,
      ttlMs: 600_000,
    });
    await store.close();
    const blocked = await runCli(['apply', manifests, '--state', state, '--auto-approve'], { env });
    expect(blocked.code).toBe(1);
    expect(blocked.stderr).toContain('pid 4242 on ci-runner-3');
    expect(blocked.stderr).toContain('platctl state unlock apply:ci-runner-3:4242:x');

    const shown = await runCli(['state', 'unlock', '--state', state], { env });
    expect(shown.stdout).toContain('Locked by pid 4242 on ci-runner-3');
    const wrong = await runCli(['state', 'unlock', 'nobody', '--state', state], { env });
    expect(wrong.code).toBe(1);
    expect(wrong.stderr).toContain('held by pid 4242 on ci-runner-3');
    const broken = await runCli(['state', 'unlock', 'apply:ci-runner-3:4242:x', '--state', state], {
      env,
    });
    expect(broken.code, broken.stderr).toBe(0);
    expect(broken.stdout).toContain('Unlocked: the lease of pid 4242 on ci-runner-3');
    const applied = await runCli(['apply', manifests, '--state', state, '--auto-approve'], { env });
    expect(applied.code, applied.stderr).toBe(0);
  }, 120_000);
});
