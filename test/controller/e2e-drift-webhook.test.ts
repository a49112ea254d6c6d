import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { RunningController } from '../../src/controller/controller.js';
import { commitFiles } from './helpers/git-remote.js';
import { WORKSPACES, workspaceYaml } from './helpers/platform-yaml.js';
import { get, nextStep, WEBHOOK_SECRET, workspaceDescription } from './helpers/stack.js';
import { useStack } from './helpers/use-stack.js';

const stack = useStack();

const description = (name: string) => workspaceDescription(stack, name);

/** Changes ws-a on the platform directly, outside git. */
async function driftWorkspace(): Promise<void> {
  const r = await stack.api('POST', WORKSPACES, {
    apiVersion: 'paas.envmgmt.io/v1',
    kind: 'Workspace',
    metadata: { name: 'ws-a', project: 'platform', description: 'changed by hand' },
  });
  expect(r.status).toBeLessThan(300);
  expect(await description('ws-a')).toBe('changed by hand');
}

async function startApplied(selfHeal: boolean): Promise<RunningController> {
  commitFiles(stack.remote, { 'platform/ws.yaml': workspaceYaml('ws-a', 'from-git') }, 'ws-a');
  const c = await stack.controller({ selfHeal });
  await nextStep(c, (o) => o.result === 'succeeded');
  return c;
}

function hook(c: RunningController, body: string, signature?: string) {
  return fetch(`http://127.0.0.1:${c.address.port}/hooks/git`, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      ...(signature !== undefined ? { 'x-hub-signature-256': signature } : {}),
    },
    body,
  });
}

describe('drift', () => {
  it('corrects a change made on the platform at the next resync (self-heal)', async () => {
    const c = await startApplied(true);
    await driftWorkspace();
    const step = nextStep(c);
    c.loop.trigger('resync');
    expect((await step).result).toBe('succeeded');
    expect(c.status.drift).toEqual(['Workspace/platform/ws-a']);
    expect(await description('ws-a')).toBe('from-git');
    expect((await get(c, '/metrics')).text).toMatch(
      /platctl_drift_detected_total\{kind="Workspace"\} 1/,
    );
    expect(stack.logs.some((l) => l.includes('"drift"') && l.includes('ws-a'))).toBe(true);
  });

  it('only reports drift with --no-self-heal', async () => {
    const c = await startApplied(false);
    await driftWorkspace();
    const before = (await stack.journal()).length;
    const step = nextStep(c);
    c.loop.trigger('resync');
    await step;
    expect(c.status.drift).toEqual(['Workspace/platform/ws-a']);
    expect(await description('ws-a')).toBe('changed by hand');
    const writes = (await stack.journal()).slice(before).filter((e) => e.method !== 'GET');
    expect(writes).toEqual([]);
  });
});

describe('webhook', () => {
  it('a signed push triggers an immediate fetch and apply; a bad signature is 401 and runs nothing', async () => {
    const c = await startApplied(true);
    const sha2 = commitFiles(
      stack.remote,
      { 'platform/ws2.yaml': workspaceYaml('ws-b', 'pushed') },
      'add ws-b',
    );
    const body = JSON.stringify({ ref: 'refs/heads/main', after: sha2 });
    const runsBefore = c.status.lastRunAt;
    const bad = await hook(c, body, `sha256=${'0'.repeat(64)}`);
    expect(bad.status).toBe(401);
    expect((await hook(c, body)).status).toBe(401);
    await new Promise((r) => setTimeout(r, 100));
    expect(c.status.lastRunAt).toBe(runsBefore); // nothing ran
    expect(c.status.lastAppliedRevision).not.toBe(sha2);

    const applied = nextStep(c, (o) => o.result === 'succeeded');
    const sig = `sha256=${createHmac('sha256', WEBHOOK_SECRET).update(body).digest('hex')}`;
    const ok = await hook(c, body, sig);
    expect(ok.status).toBe(202);
    await applied;
    expect(c.status.lastAppliedRevision).toBe(sha2);
    expect(await description('ws-b')).toBe('pushed');
  });
});
