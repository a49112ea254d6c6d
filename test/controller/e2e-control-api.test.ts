import { describe, expect, it } from 'vitest';
import { commitFiles } from './helpers/git-remote.js';
import { WORKSPACES, workspaceYaml } from './helpers/platform-yaml.js';
import { CONTROL_TOKEN, control, get, nextStep, workspaceDescription } from './helpers/stack.js';
import { useStack } from './helpers/use-stack.js';

/**
 * The control API (docs/control-api.md) of a real controller, against the emulator and a
 * bare git repository: auth, status, resources, runs, diff and every control verb.
 */
const stack = useStack();

const description = (name: string) => workspaceDescription(stack, name);

async function applied(files: Record<string, string>) {
  const sha = commitFiles(stack.remote, files, 'first commit');
  const c = await stack.controller();
  await nextStep(c, (o) => o.result === 'succeeded');
  return { c, sha };
}

describe('control API auth', () => {
  it('wants the bearer token on control routes only, and is off without a token', async () => {
    const { c } = await applied({ 'platform/ws.yaml': workspaceYaml('ws-a', 'one') });
    expect(await control(c, 'GET', '/api/v1/status', undefined, null)).toEqual({
      status: 401,
      body: { error: 'unauthorized' },
    });
    expect((await control(c, 'GET', '/api/v1/status', undefined, 'wrong')).status).toBe(401);
    expect((await control(c, 'POST', '/api/v1/suspend', undefined, 'wrong')).status).toBe(401);
    expect((await get(c, '/healthz')).status).toBe(200);
    expect((await get(c, '/metrics')).status).toBe(200);
    const off = await stack.controller({ controlToken: undefined });
    expect(await control(off, 'GET', '/api/v1/status')).toEqual({
      status: 404,
      body: { error: 'control API disabled' },
    });
  });
});

describe('control API reads', () => {
  it('serves status, resources, one resource, runs and the plan it would run now', async () => {
    const { c, sha } = await applied({
      'platform/a.yaml': workspaceYaml('ws-a', 'one'),
      'platform/b.yaml': workspaceYaml('ws-b', 'two'),
    });
    const status = (await control(c, 'GET', '/api/v1/status')).body;
    expect(status).toMatchObject({
      source: { repo: stack.remote.bare, branch: 'main', path: 'platform/' },
      role: 'leader',
      suspended: false,
      sourceReady: true,
      counts: { Ready: 2, Degraded: 0, total: 2 },
      lastResult: 'succeeded',
      rejected: [],
    });
    expect(status.revisions.lastApplied).toMatchObject({
      revision: sha,
      message: 'first commit',
      author: 'test',
    });
    expect(status.nextRunInMs).toBeGreaterThan(0);
    expect(JSON.stringify(status)).not.toContain(CONTROL_TOKEN);

    const list = (await control(c, 'GET', '/api/v1/resources?limit=1&offset=1')).body;
    expect(list.total).toBe(2);
    expect(list.items).toHaveLength(1);
    expect(list.items[0]).toMatchObject({
      key: 'Workspace/platform/ws-b',
      kind: 'Workspace',
      project: 'platform',
      name: 'ws-b',
      condition: 'Ready',
      reason: 'Applied',
    });
    expect((await control(c, 'GET', '/api/v1/resources?condition=Drifted')).body.total).toBe(0);
    expect((await control(c, 'GET', '/api/v1/resources?condition=Nope')).status).toBe(400);
    expect((await control(c, 'GET', '/api/v1/resources?q=WS-B')).body.total).toBe(1);
    const sorted = (await control(c, 'GET', '/api/v1/resources?view=tree&sort=-name')).body;
    expect(sorted.items.map((i: { key: string }) => i.key)).toEqual([
      'Workspace/platform/ws-b',
      'Workspace/platform/ws-a',
    ]);
    expect(await control(c, 'GET', '/api/v1/resources?sort=size')).toEqual({
      status: 400,
      body: {
        error:
          'sort must be one of name, kind, condition, project, changed, with - before it for descending (got "size")',
      },
    });
    const graph = (await control(c, 'GET', '/api/v1/graph')).body;
    expect(graph.nodes).toEqual([expect.objectContaining({ id: 'project:platform', size: 2 })]);
    const expanded = (await control(c, 'GET', '/api/v1/graph?expand=platform')).body;
    expect(expanded.nodes.map((n: { id: string }) => n.id)).toEqual([
      'Workspace/platform/ws-a',
      'Workspace/platform/ws-b',
    ]);
    expect((await control(c, 'GET', '/api/v1/graph?focus=Workspace%2Fnope')).status).toBe(404);
    const fleet = (await control(c, 'GET', '/api/v1/fleet')).body;
    expect(fleet).toEqual({ total: 0, on: 0, off: 0, gpusOn: 0, items: [] }); // no instance here
    expect((await control(c, 'GET', '/api/v1/fleet?power=dim')).status).toBe(400);

    const one = await control(
      c,
      'GET',
      `/api/v1/resources/${encodeURIComponent('Workspace/platform/ws-a')}`,
    );
    expect(one.status).toBe(200);
    expect(one.body.resource.key).toBe('Workspace/platform/ws-a');
    expect(one.body.desired.metadata.description).toBe('one');
    expect(one.body.actions[0]).toMatchObject({ type: 'create', outcome: 'succeeded' });
    expect((await control(c, 'GET', '/api/v1/resources/nope')).status).toBe(404);

    const runs = (await control(c, 'GET', '/api/v1/runs')).body.items;
    expect(runs[0]).toMatchObject({
      revision: sha,
      trigger: 'startup',
      result: 'succeeded',
      counts: { create: 2, failed: 0 },
      failures: [],
    });

    await stack.api('POST', WORKSPACES, {
      apiVersion: 'paas.envmgmt.io/v1',
      kind: 'Workspace',
      metadata: { name: 'ws-a', project: 'platform', description: 'by hand' },
    });
    const plan = (await control(c, 'GET', '/api/v1/diff')).body;
    expect(plan.formatVersion).toBe(1);
    expect(plan.actions.find((a: { type: string }) => a.type === 'update')).toMatchObject({
      key: 'Workspace/platform/ws-a',
      reason: { code: 'drift' },
    });
    expect(await description('ws-a')).toBe('by hand'); // the diff changed nothing
  });
});

describe('control API verbs', () => {
  it('suspends (kept across a restart), resumes, and reconciles with or without the source', async () => {
    const { c } = await applied({ 'platform/a.yaml': workspaceYaml('ws-a', 'one') });
    expect((await control(c, 'POST', '/api/v1/suspend')).body).toEqual({ suspended: true });
    const sha2 = commitFiles(
      stack.remote,
      { 'platform/a.yaml': workspaceYaml('ws-a', 'two') },
      'two',
    );

    // without the source: the revision already fetched is reconciled, the new commit is not seen
    let step = nextStep(c);
    expect((await control(c, 'POST', '/api/v1/reconcile', {})).status).toBe(202);
    expect((await step).revision).not.toBe(sha2);
    step = nextStep(c);
    expect((await control(c, 'POST', '/api/v1/reconcile', { withSource: true })).body).toEqual({
      accepted: true,
    });
    expect((await step).result).toBe('planned');
    expect(await description('ws-a')).toBe('one'); // suspended: nothing changed
    const r = (await control(c, 'GET', '/api/v1/resources')).body.items[0];
    expect(r).toMatchObject({ condition: 'Suspended', reason: 'Suspended' });
    expect((await control(c, 'GET', '/api/v1/runs?limit=1')).body.items[0].trigger).toBe('manual');

    await c.stop();
    const again = await stack.controller();
    expect((await nextStep(again)).result).toBe('planned');
    expect((await control(again, 'GET', '/api/v1/status')).body.suspended).toBe(true);

    step = nextStep(again, (o) => o.result === 'succeeded');
    expect((await control(again, 'POST', '/api/v1/resume')).body).toEqual({ suspended: false });
    await step;
    expect(await description('ws-a')).toBe('two');
  });

  it('approves a held prune by run id and resets a resource backoff', async () => {
    const { c } = await applied({
      'platform/a.yaml': workspaceYaml('ws-a', 'a'),
      'platform/b.yaml': workspaceYaml('ws-b', 'b'),
      'platform/k.yaml': workspaceYaml('keep', 'k'),
    });
    await c.stop();
    const held = await stack.controller({ maxDeletes: 1 });
    await nextStep(held);
    commitFiles(stack.remote, { 'platform/a.yaml': null, 'platform/b.yaml': null }, 'drop two');
    const step = nextStep(held);
    await control(held, 'POST', '/api/v1/reconcile', { withSource: true });
    expect((await step).result).toBe('prune-blocked');
    const status = (await control(held, 'GET', '/api/v1/status')).body;
    expect(status.blockedPrune).toMatchObject({ count: 2, limit: 1 });
    expect((await control(held, 'POST', '/api/v1/prunes/nope/approve')).status).toBe(404);
    const done = nextStep(held, (o) => o.result === 'succeeded');
    const ok = await control(held, 'POST', `/api/v1/prunes/${status.blockedPrune.runId}/approve`);
    expect(ok.body).toEqual({ approved: true });
    await done;
    expect(await description('ws-a')).toBeUndefined();
    expect(await description('keep')).toBe('k');

    const key = encodeURIComponent('Workspace/platform/keep');
    expect((await control(held, 'POST', `/api/v1/resources/${key}/reset-backoff`)).body).toEqual({
      reset: true,
    });
    expect((await control(held, 'POST', '/api/v1/resources/nope/reset-backoff')).status).toBe(404);
  });

  it('streams status and run events with the token in a header', async () => {
    const { c } = await applied({ 'platform/a.yaml': workspaceYaml('ws-a', 'a') });
    const res = await fetch(`http://127.0.0.1:${c.address.port}/api/v1/events`, {
      headers: { authorization: `Bearer ${CONTROL_TOKEN}` },
    });
    expect(res.headers.get('content-type')).toBe('text/event-stream');
    const reader = res.body!.getReader();
    let text = '';
    await control(c, 'POST', '/api/v1/reconcile', {});
    while (!text.includes('event: run')) {
      const { value, done } = await reader.read();
      if (done) break;
      text += new TextDecoder().decode(value);
    }
    await reader.cancel();
    expect(text).toMatch(/^event: status\ndata: \{/);
    expect(text).toMatch(/event: run\ndata: \{"runId":/);
  });
});
