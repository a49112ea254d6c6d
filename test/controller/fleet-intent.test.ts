import { createHmac } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { RunningController } from '../../src/controller/controller.js';
import { postgresUrl, type TestSchema, testSchema } from '../helpers/postgres.js';
import { commitFiles } from './helpers/git-remote.js';
import { workspaceYaml } from './helpers/platform-yaml.js';
import {
  control,
  createStack,
  nextStep,
  type Stack,
  WEBHOOK_SECRET,
  workspaceDescription,
} from './helpers/stack.js';
import { until } from './helpers/until.js';

// Operator intent (suspension, approvals) lives in the state store, written by whoever leads
// under its fence and read by whoever leads at each pass; a standby acts on no control call.

let stack: Stack;
let schema: TestSchema;
beforeEach(async () => {
  if (!postgresUrl) return;
  stack = await createStack();
  schema = await testSchema('intent');
});
afterEach(async () => {
  await stack?.close();
  await schema?.drop();
});

const inProject = (project: string, name: string, description: string) =>
  workspaceYaml(name, description).replace('project: platform', `project: ${project}`);

describe.skipIf(!postgresUrl)('operator intent across replicas (PostgreSQL)', () => {
  const pair = async (): Promise<[RunningController, RunningController]> => {
    commitFiles(stack.remote, { 'platform/a.yaml': workspaceYaml('ws-a', 'one') }, 'one');
    const a = await stack.controller({ statePath: schema.url, leaseTtlMs: 3000 });
    await nextStep(a, (o) => o.result === 'succeeded');
    const b = await stack.controller({ statePath: schema.url, leaseTtlMs: 3000 });
    await until('b stands by', () => b.status.role === 'standby');
    return [a, b];
  };

  it('a standby answers every control call with 503 and the leader, and changes nothing', async () => {
    const [a, b] = await pair();
    for (const [path, body] of [
      ['/api/v1/suspend', undefined],
      ['/api/v1/resume', undefined],
      ['/api/v1/reconcile', {}],
      ['/api/v1/prunes/some-run/approve', undefined],
      ['/api/v1/resources/Workspace%2Fplatform%2Fws-a/reset-backoff', undefined],
    ] as const) {
      const r = await control(b, 'POST', path, body);
      expect(r.status, path).toBe(503);
      expect(r.body.error, path).toMatch(/stands by/);
      expect(r.body.leader, path).toMatch(/^pid \d+ on .*holder controller:/);
    }
    // a signed push delivered to the standby is not taken as delivered either
    const body = JSON.stringify({ ref: 'refs/heads/main' });
    const hook = await fetch(`http://127.0.0.1:${b.address.port}/hooks/git`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-github-event': 'push',
        'x-hub-signature-256': `sha256=${createHmac('sha256', WEBHOOK_SECRET).update(body).digest('hex')}`,
      },
      body,
    });
    expect(hook.status).toBe(503);
    expect(((await hook.json()) as { leader: string }).leader).toMatch(/^pid \d+ on /);
    // the suspension asked of the standby was not made: the leader applies the next commit
    commitFiles(stack.remote, { 'platform/a.yaml': workspaceYaml('ws-a', 'two') }, 'two');
    const step = nextStep(a, (o) => o.result !== 'planned');
    await control(a, 'POST', '/api/v1/reconcile', { withSource: true });
    expect((await step).result).toBe('succeeded');
    expect(await workspaceDescription(stack, 'ws-a')).toBe('two');
    expect(b.status.suspended).toBe(false);
  });

  it('a suspension made on the leader holds on the replica that takes over', async () => {
    const [a, b] = await pair();
    expect((await control(a, 'POST', '/api/v1/suspend')).body).toEqual({ suspended: true });
    commitFiles(stack.remote, { 'platform/a.yaml': workspaceYaml('ws-a', 'two') }, 'two');
    const takeover = nextStep(b);
    await a.stop();
    expect((await takeover).result).toBe('planned');
    expect(await workspaceDescription(stack, 'ws-a')).toBe('one');
    expect((await control(b, 'GET', '/api/v1/status')).body.suspended).toBe(true);
    // and resuming on the new leader lifts it
    const applied = nextStep(b, (o) => o.result === 'succeeded');
    expect((await control(b, 'POST', '/api/v1/resume')).body).toEqual({ suspended: false });
    await applied;
    expect(await workspaceDescription(stack, 'ws-a')).toBe('two');
  });

  it('a suspension given to the leader reaches a replica that restarted before it', async () => {
    const [a, b] = await pair();
    // b's process started (and read the store) before the suspension; it leads only later
    expect((await control(a, 'POST', '/api/v1/suspend')).status).toBe(200);
    expect((await control(a, 'POST', '/api/v1/resume')).status).toBe(200);
    expect((await control(a, 'POST', '/api/v1/suspend')).status).toBe(200);
    commitFiles(stack.remote, { 'platform/a.yaml': workspaceYaml('ws-a', 'three') }, 'three');
    const takeover = nextStep(b);
    await a.stop();
    expect((await takeover).result).toBe('planned');
    expect(await workspaceDescription(stack, 'ws-a')).toBe('one');
  });

  it('sharded: one suspend holds every project, whichever replica holds it', async () => {
    const projects = ['platform', 'ml-research', 'default'];
    commitFiles(
      stack.remote,
      Object.fromEntries(
        projects.map((p) => [`platform/${p}.yaml`, inProject(p, `ws-${p}`, 'one')]),
      ),
      'one per project',
    );
    const sharded = { statePath: schema.url, shardBy: 'project' as const, leaseTtlMs: 3000 };
    const x = await stack.controller(sharded);
    const y = await stack.controller(sharded);
    const described = async (p: string) =>
      (
        (await stack.api('GET', `/apis/paas.envmgmt.io/v1/projects/${p}/workspaces/ws-${p}`))
          .body as { metadata?: { description?: string } }
      ).metadata?.description;
    await until(
      'every project applied',
      async () => (await Promise.all(projects.map(described))).every((d) => d === 'one'),
      40_000,
    );
    const all = projects.map((p) => `project:${p}`);
    await until('the shards split between two replicas', () => {
      const held = [...(x.status.shards?.held ?? []), ...(y.status.shards?.held ?? [])];
      return (
        x.status.shards?.replicas.length === 2 &&
        y.status.shards?.replicas.length === 2 &&
        [...all, 'global'].every((s) => held.filter((h) => h === s).length === 1)
      );
    });
    const [leader, other] = x.status.shards?.held.includes('global') ? [x, y] : [y, x];
    // the fleet-wide switch is the global shard holder's to write; the other names it
    const refused = await control(other, 'POST', '/api/v1/suspend');
    expect(refused.status).toBe(503);
    expect(refused.body.leader).toContain(leader.status.shards?.replica);
    expect((await control(leader, 'POST', '/api/v1/suspend')).body).toEqual({ suspended: true });
    const two = commitFiles(
      stack.remote,
      Object.fromEntries(
        projects.map((p) => [`platform/${p}.yaml`, inProject(p, `ws-${p}`, 'two')]),
      ),
      'two per project',
    );
    for (const c of [x, y]) {
      const step = nextStep(c, (o) => o.revision === two);
      await control(c, 'POST', '/api/v1/reconcile', { withSource: true });
      expect((await step).result).toBe('planned');
    }
    expect(await Promise.all(projects.map(described))).toEqual(['one', 'one', 'one']);
    expect((await control(other, 'GET', '/api/v1/status')).body.suspended).toBe(true);
  }, 90_000);

  it('sharded: an approval sent to another replica names the one holding the prune', async () => {
    const keep = ['a', 'b', 'c'].map((n) => `ws-${n}`);
    commitFiles(
      stack.remote,
      {
        ...Object.fromEntries(keep.map((n) => [`platform/${n}.yaml`, workspaceYaml(n, 'one')])),
        'platform/ml.yaml': inProject('ml-research', 'ws-ml', 'one'),
      },
      'three in platform, one in ml-research',
    );
    const sharded = {
      statePath: schema.url,
      shardBy: 'project' as const,
      leaseTtlMs: 3000,
      maxDeletes: 1,
    };
    const x = await stack.controller(sharded);
    const y = await stack.controller(sharded);
    await until(
      'both projects held, by two replicas',
      () =>
        x.status.shards?.replicas.length === 2 &&
        [x, y].some((c) => c.status.shards?.held.includes('project:platform')) &&
        [x, y].some((c) => c.status.shards?.held.includes('project:ml-research')),
    );
    const holder = x.status.shards?.held.includes('project:platform') ? x : y;
    const other = holder === x ? y : x;
    await until(
      'the three applied',
      () => holder.status.inventory.filter((k) => k.startsWith('Workspace/platform/')).length === 3,
    );
    commitFiles(
      stack.remote,
      { 'platform/ws-a.yaml': null, 'platform/ws-b.yaml': null },
      'drop two',
    );
    const held = nextStep(holder, (o) => o.result === 'prune-blocked');
    await control(holder, 'POST', '/api/v1/reconcile', { withSource: true });
    await held;
    const runId = holder.status.blockedPrune?.runId;
    expect(runId).toBeDefined();
    const elsewhere = await control(other, 'POST', `/api/v1/prunes/${runId}/approve`);
    expect(elsewhere.status).toBe(503);
    expect(elsewhere.body.leader).toContain(holder.status.shards?.replica);
    expect((await control(holder, 'POST', `/api/v1/prunes/${runId}/approve`)).status).toBe(200);
  }, 90_000);
});
