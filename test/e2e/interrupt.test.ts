import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStateStore } from '../../src/state/index.js';
import { PLATCTL_JS } from '../helpers/platctl-bin.js';
import { type World, world } from './harness.js';

const bin = PLATCTL_JS;
let w: World;
beforeEach(async () => {
  w = await world();
});
afterEach(async () => {
  await w.close();
});

/** Runs `platctl apply` and sends SIGINT once the first action has started. */
function applyInterrupted(state: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(
      process.execPath,
      [bin, 'apply', w.manifests, '--state', state, '--auto-approve', '--concurrency', '1'],
      {
        env: {
          ...process.env,
          ...w.env,
          NO_COLOR: '1',
          PLATCTL_BASE_URL: w.emulator.url,
          PLATCTL_API_KEY: w.apiKey,
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stderr = '';
    let sent = false;
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString();
      if (!sent && /: (create|publish)\.\.\.\n/.test(stderr)) {
        sent = true;
        child.kill('SIGINT');
      }
    });
    child.stdout.resume();
    const timer = setTimeout(() => child.kill('SIGKILL'), 45_000);
    child.on('error', reject);
    child.on('close', (code) => {
      clearTimeout(timer);
      resolve({ code, stderr });
    });
  });
}

describe('Ctrl-C during apply', () => {
  it('starts nothing new, records what ran, exits 1; the next apply finishes without duplicates', async () => {
    const state = join(w.dir, 'state.db');
    const r = await applyInterrupted(state);
    expect(r.code).toBe(1);
    expect(r.stderr).toMatch(/stopping: no new action starts/);
    const started = (r.stderr.match(/\.\.\.\n/g) ?? []).length;
    const finished = (r.stderr.match(/ done \[/g) ?? []).length;
    expect(started).toBe(finished); // what started, finished
    const store = openStateStore(state);
    const recorded = (await store.inventory()).length;
    await store.close();
    expect(recorded).toBeGreaterThan(0);
    expect(recorded).toBeLessThan(19);
    for (let i = 0; i < 3; i++) {
      const next = await w.run({ mode: 'apply' });
      if (next.status === 'in-sync') break;
      expect(next.status).toBe('applied');
    }
    const creates = (await w.journal(0)).filter(
      (e) =>
        e.method === 'POST' &&
        /^\/(auth\/v1\/users\/|apis\/[^/]+\/v\d\/projects\/[^/]+\/(services|clusters|workspaces\/[^/]+\/computeinstances))$/.test(
          e.path,
        ) &&
        e.status < 300,
    );
    expect(creates).toHaveLength(9); // 3 users, 2 VPCs, 3 instances, 1 cluster: once each
  }, 90_000);
});
