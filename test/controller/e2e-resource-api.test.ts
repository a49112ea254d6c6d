import { describe, expect, it } from 'vitest';
import { commitFiles } from './helpers/git-remote.js';
import { WORKSPACES, workspaceYaml } from './helpers/platform-yaml.js';
import { control, nextStep } from './helpers/stack.js';
import { useStack } from './helpers/use-stack.js';

/**
 * What the dashboard's resource and run pages read from a real controller (docs/control-api.md):
 * the document as written with its place, the live document, the history without repeats, one
 * run with its actions' timing, and reconciling one resource.
 */
const stack = useStack();

const KEY = 'Workspace/platform/ws-a';
const resource = (c: Parameters<typeof control>[0]) =>
  control(c, 'GET', `/api/v1/resources/${encodeURIComponent(KEY)}`);

describe('the control API for one resource', () => {
  it('serves the document as written, the live one, a history without repeats, and one run', async () => {
    commitFiles(
      stack.remote,
      {
        'platform/a.yaml': `# the team's workspace\n---\n${workspaceYaml('ws-a', 'one')}`,
        'platform/b.yaml': workspaceYaml('ws-b', 'two'),
      },
      'first',
    );
    const c = await stack.controller();
    const first = await nextStep(c, (o) => o.result === 'succeeded');

    const one = (await resource(c)).body;
    expect(one.source).toMatchObject({ file: expect.stringMatching(/(^|\/)a\.yaml$/), line: 3 });
    expect(one.source.yaml).toBe(workspaceYaml('ws-a', 'one').trimEnd());
    expect(one.live.body.metadata).toMatchObject({ name: 'ws-a', description: 'one' });

    const run = await control(c, 'GET', `/api/v1/runs/${first.runId}`);
    expect(run.status).toBe(200);
    const create = run.body.actions.find((a: { key: string }) => a.key === KEY);
    expect(create).toMatchObject({ type: 'create', outcome: 'succeeded' });
    expect(Date.parse(create.startedAt)).toBeGreaterThanOrEqual(Date.parse(run.body.startedAt));
    expect(create.durationMs).toBeGreaterThanOrEqual(0);
    expect((await control(c, 'GET', '/api/v1/runs/nope')).status).toBe(404);

    // a drift seen while suspended is planned again by every run: one history entry, counted
    expect((await control(c, 'POST', '/api/v1/suspend')).status).toBe(200);
    await stack.api('POST', WORKSPACES, {
      apiVersion: 'paas.envmgmt.io/v1',
      kind: 'Workspace',
      metadata: { name: 'ws-a', project: 'platform', description: 'by hand' },
    });
    for (let i = 0; i < 2; i++) {
      const step = nextStep(c);
      await control(c, 'POST', '/api/v1/reconcile', {});
      expect((await step).result).toBe('planned');
    }
    const drifted = (await resource(c)).body;
    expect(drifted.resource).toMatchObject({ condition: 'Drifted', reason: 'Drift' });
    expect(drifted.live.body.metadata.description).toBe('by hand');
    expect(drifted.actions[0]).toMatchObject({
      type: 'update',
      reason: 'drift',
      outcome: 'planned',
      count: 2,
    });
    expect(drifted.actions[1]).toMatchObject({ type: 'create', count: 1 });
    expect((await control(c, 'GET', '/api/v1/status')).body.counts.Drifted).toBe(1);
  });

  it('reconciles one resource on request: its backoff forgotten, a run started', async () => {
    commitFiles(stack.remote, { 'platform/a.yaml': workspaceYaml('ws-a', 'one') }, 'first');
    const c = await stack.controller();
    await nextStep(c, (o) => o.result === 'succeeded');
    await stack.api('POST', WORKSPACES, {
      apiVersion: 'paas.envmgmt.io/v1',
      kind: 'Workspace',
      metadata: { name: 'ws-a', project: 'platform', description: 'by hand' },
    });
    const step = nextStep(c);
    const asked = await control(
      c,
      'POST',
      `/api/v1/resources/${encodeURIComponent(KEY)}/reconcile`,
    );
    expect(asked).toEqual({ status: 202, body: { accepted: true } });
    expect((await step).result).toBe('succeeded');
    expect((await resource(c)).body.live.body.metadata.description).toBe('one');
    expect((await control(c, 'POST', '/api/v1/resources/nope/reconcile')).status).toBe(404);
  });
});
