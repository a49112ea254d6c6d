import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type RunningController, startController } from '../../src/controller/controller.js';
import { emulatorControl } from '../../src/emulator/admin/client.js';
import { type RunningEmulator, startEmulator } from '../../src/emulator/index.js';
import {
  type ControllerProcess,
  eventually,
  startControllerProcess,
} from './helpers/cli-process.js';
import { memoryLogger } from './helpers/fakes.js';
import { commitFiles, createGitRemote } from './helpers/git-remote.js';
import { VPC_YAML, workspaceYaml } from './helpers/platform-yaml.js';
import { API_KEY, CONTROL_TOKEN } from './helpers/stack.js';

let root: string;
let emulator: RunningEmulator;
let ctl: ControllerProcess | undefined;
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'platctl-watchdog-'));
  emulator = await startEmulator({ port: 0, apiKey: API_KEY, admin: true });
});
afterEach(async () => {
  if (ctl && ctl.proc.child.exitCode === null) ctl.proc.child.kill('SIGKILL');
  await emulator.close();
  await rm(root, { recursive: true, force: true });
});

const HANG_MS = 5_000;

describe('liveness watchdog (real controller process)', () => {
  it('/healthz turns 503 while a run hangs on a request that never answers, and 200 once it does', async () => {
    const remote = await createGitRemote(join(root, 'git'));
    commitFiles(remote, { 'platform/ws.yaml': workspaceYaml('ws-live', 'x') }, 'c1');
    ctl = await startControllerProcess(
      [
        ...['--repo', remote.bare, '--path', 'platform/', '--interval', '10m'],
        ...['--state', join(root, 'state.db'), '--lease-ttl', '2s'],
        ...['--liveness-threshold', '2s'],
      ],
      {
        PLATCTL_BASE_URL: emulator.url,
        PLATCTL_API_KEY: API_KEY,
        PLATCTL_CONTROL_TOKEN: CONTROL_TOKEN,
      },
    );
    const c = ctl;
    await c.waitStatus((s) => s.lastResult === 'succeeded');
    // idle with a 10-minute interval and a 2 s threshold: the sleeping loop still beats
    expect((await c.http('/healthz')).body).toMatchObject({ status: 'ok' });

    // the next run's first platform request gets no answer for a while (no error, no timeout)
    await emulatorControl(emulator.url, 'POST', '/_emulator/faults', {
      path: '/apis/**',
      latencyMs: HANG_MS,
      count: 1,
    });
    const ran = await c.http('/api/v1/reconcile', {
      method: 'POST',
      token: CONTROL_TOKEN,
      body: { withSource: false },
    });
    expect(ran.status).toBe(202);
    const stuck = await eventually('healthz 503', async () => {
      const h = await c.http('/healthz');
      return h.status === 503 ? h.body : undefined;
    });
    expect(stuck.status).toBe('stuck');
    expect(stuck.reason).toMatch(
      /^the reconcile loop has not made progress for [\d.]+s \(threshold 2s\); last heartbeat: run/,
    );
    const metrics = (await c.http('/metrics')).text;
    const beat = Number(/^platctl_loop_last_heartbeat_seconds (\S+)$/m.exec(metrics)?.[1]);
    expect(beat).toBeLessThan(Date.now() / 1000 - 2);
    // the server itself is fine: readiness and status still answer while the loop is stuck
    expect((await c.http('/readyz')).status).toBe(200);

    // the answer comes: the run goes on, the loop beats again, liveness recovers by itself
    await eventually('healthz 200 again', async () =>
      (await c.http('/healthz')).status === 200 ? true : undefined,
    );
    await c.waitStatus((s) => s.lastResult === 'succeeded' && s.nextRunInMs !== undefined);
    c.proc.child.kill('SIGTERM');
    expect(await c.exited).toBe(0);
    expect(c.output()).not.toContain(API_KEY);
  });

  it('stays 200 through a wait on a deployment far longer than the threshold: each poll beats', async () => {
    // an emulator of its own whose VPC deploys for an hour of emulated time
    const slow = await startEmulator({
      port: 0,
      apiKey: API_KEY,
      admin: true,
      transitionSeconds: { 'vpc-deploy': 3600 },
    });
    const remote = await createGitRemote(join(root, 'git-wait'));
    commitFiles(remote, { 'platform/vpc.yaml': VPC_YAML }, 'vpc');
    const c = await startController({
      source: { kind: 'git', repo: remote.bare, branch: 'main', path: 'platform/' },
      cacheDir: join(root, 'cache-wait'),
      statePath: join(root, 'wait.db'),
      listen: '127.0.0.1:0',
      api: { baseUrl: slow.url, apiKey: API_KEY },
      intervalMs: 600_000,
      runTimeoutMs: 600_000,
      selfHeal: true,
      dryRun: false,
      suspend: false,
      prune: false,
      leaseTtlMs: 2_000,
      wait: { pollMs: 50, timeoutMs: 600_000 },
      livenessThresholdMs: 3_000,
      shutdownTimeoutMs: 1_000, // a failing test still stops: the wait is cut
      logger: memoryLogger().logger,
    });
    try {
      await eventually('the VPC deploying', async () => {
        const journal = await emulatorControl(slow.url, 'GET', '/_emulator/journal').then((r) =>
          r.text(),
        );
        return journal.includes('/vpc-platform/publish') ? true : undefined;
      });
      // one and a half thresholds of real time inside one wait: never stuck
      const until = Date.now() + 4_500;
      const seen = new Set<number>();
      while (Date.now() < until) {
        seen.add((await healthz(c)).status);
        await new Promise((r) => setTimeout(r, 100));
      }
      expect([...seen]).toEqual([200]);
      expect(c.status.lastResult).toBeUndefined(); // still the first run, still waiting
      await emulatorControl(slow.url, 'POST', '/_emulator/clock/advance', { seconds: 3600 });
      await eventually('the run ends', async () => c.status.lastResult ?? undefined);
      expect(c.status.lastResult).toBe('succeeded');
    } finally {
      await c.stop();
      await slow.close();
    }
  });
});

function healthz(c: RunningController) {
  return fetch(`http://127.0.0.1:${c.address.port}/healthz`);
}
