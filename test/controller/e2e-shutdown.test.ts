import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { emulatorControl } from '../../src/emulator/admin/client.js';
import { type RunningEmulator, startEmulator } from '../../src/emulator/index.js';
import { openStateStore } from '../../src/state/index.js';
import { keyHeaders } from '../helpers/key-header.js';
import {
  type ControllerProcess,
  eventually,
  startControllerProcess,
} from './helpers/cli-process.js';
import { commitFiles, createGitRemote } from './helpers/git-remote.js';
import { instanceYaml, VPC_YAML, WORKSPACES, workspaceYaml } from './helpers/platform-yaml.js';
import { API_KEY } from './helpers/stack.js';

let root: string;
let emulator: RunningEmulator;
const procs: ControllerProcess[] = [];
beforeEach(async () => {
  root = await mkdtemp(join(tmpdir(), 'platctl-grace-'));
  // the VPC deploys for an hour of emulator time: longer than any grace period
  emulator = await startEmulator({
    port: 0,
    apiKey: API_KEY,
    admin: true,
    transitionSeconds: { 'vpc-deploy': 3600, 'compute-provision': 0.3 },
  });
});
afterEach(async () => {
  for (const p of procs.splice(0)) if (p.proc.child.exitCode === null) p.proc.child.kill('SIGKILL');
  await emulator.close();
  await rm(root, { recursive: true, force: true });
});

const admin = (path: string, body: unknown) =>
  emulatorControl(emulator.url, 'POST', `/_emulator/${path}`, body);
const journal = async () =>
  (
    (await (await emulatorControl(emulator.url, 'GET', '/_emulator/journal')).json()) as {
      entries: { method: string; path: string; status: number }[];
    }
  ).entries;

async function controller(state: string, remote: string): Promise<ControllerProcess> {
  const p = await startControllerProcess(
    [
      ...['--repo', remote, '--path', 'platform/', '--interval', '10m'],
      ...['--state', state, '--lease-ttl', '2s', '--shutdown-timeout', '1s'],
    ],
    { PLATCTL_BASE_URL: emulator.url, PLATCTL_API_KEY: API_KEY },
  );
  procs.push(p);
  return p;
}

describe('SIGTERM during a wait longer than the grace period (real controller process)', () => {
  it('cuts the wait, records interrupted; the next process resumes, creating nothing twice', {
    timeout: 60_000,
  }, async () => {
    const remote = await createGitRemote(join(root, 'git'));
    commitFiles(
      remote,
      {
        'platform/vpc.yaml': VPC_YAML,
        'platform/ws.yaml': workspaceYaml('ws-grace', 'g'),
        'platform/node.yaml': instanceYaml('ws-grace', 'node-1'),
      },
      'vpc, workspace, instance',
    );
    // the workspace's create is answered late: still in flight when the shutdown timeout passes,
    // while the platform goes on to make it (the case a pending record exists for)
    await admin('faults', { path: WORKSPACES, method: 'POST', latencyMs: 5_000, count: 1 });
    const state = join(root, 'state.db');
    const first = await controller(state, remote.bare);
    await first.proc.waitFor(/"event":"action-start".*"resource":"Workspace\/[^"]*".*"create"/);
    await eventually('the VPC deploying', async () =>
      (await journal()).some((e) => e.method === 'POST' && e.path.endsWith('/vpc-platform/publish'))
        ? true
        : undefined,
    );
    first.proc.child.kill('SIGTERM');
    expect(await first.exited).toBe(0);
    const out = first.output();
    expect(out).toContain('"event":"shutdown-timeout"');
    expect(out).toMatch(/"event":"run-end"[^\n]*"result":"interrupted"/);

    // recorded: the run and status say interrupted, the create in flight is still pending
    const store = openStateStore(state);
    const [run] = (await store.runs(1)) as { result: string }[];
    const status = (await store.controllerStatus()) as {
      lastResult: string;
      conditions: { key: string; condition: string; reason: string }[];
    };
    const pending = (await store.pending()).map((p) => p.key);
    await store.close();
    expect(run?.result).toBe('interrupted');
    expect(status.lastResult).toBe('interrupted');
    expect(status.conditions.find((c) => c.key.startsWith('Service/'))).toMatchObject({
      condition: 'Progressing',
      reason: 'Interrupted',
    });
    expect(pending).toEqual(['Workspace/platform/ws-grace']);

    // the platform finished the create the controller stopped waiting for; the VPC deploys
    await eventually('the workspace made by the cut request', async () => {
      const r = await fetch(`${emulator.url}${WORKSPACES}/ws-grace`, {
        headers: { ...keyHeaders(API_KEY) },
      });
      return r.status === 200 ? true : undefined;
    });
    await admin('clock/advance', { seconds: 3600 });

    const second = await controller(state, remote.bare);
    await second.waitStatus((s) => s.lastResult === 'succeeded', 60_000);
    second.proc.child.kill('SIGTERM');
    expect(await second.exited).toBe(0);
    const entries = await journal();
    const posts = (suffix: string) =>
      entries.filter((e) => e.method === 'POST' && e.path.endsWith(suffix));
    expect(posts('/projects/platform/services')).toHaveLength(1);
    expect(posts('/projects/platform/workspaces')).toHaveLength(1); // adopted, not sent twice
    expect(posts('/ws-grace/computeinstances')).toHaveLength(1);
    expect(posts('/node-1/publish')).toHaveLength(1);
    const after = openStateStore(state);
    expect(await after.pending()).toEqual([]);
    await after.close();
  });
});
