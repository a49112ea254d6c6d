import { describe, expect, it } from 'vitest';
import { controllerLoad } from '../../src/controller/engine/manifest-loading.js';
import type { LoadPort } from '../../src/reconcile/run.js';
import { commitFiles } from './helpers/git-remote.js';
import { workspaceYaml } from './helpers/platform-yaml.js';
import { get, nextStep } from './helpers/stack.js';
import { useStack } from './helpers/use-stack.js';

const stack = useStack();

/** The controller's loader, counting the directories it loads. */
function countingLoad() {
  const loads: string[] = [];
  const load: LoadPort = (input) => {
    loads.push(...input.paths);
    return controllerLoad(input);
  };
  return { load, loads };
}

describe('controller: one load per revision', () => {
  it('loads and validates a revision once, however many intervals reconcile it', async () => {
    commitFiles(
      stack.remote,
      {
        'platform/a.yaml': workspaceYaml('ws-a', 'a'),
        'platform/b.yaml': workspaceYaml('ws-b', 'b'),
      },
      'two workspaces',
    );
    const { load, loads } = countingLoad();
    const c = await stack.controller({ load });
    await nextStep(c, (o) => o.result === 'succeeded');
    for (let i = 0; i < 2; i++) {
      const step = nextStep(c);
      c.loop.trigger('interval');
      expect((await step).result).toBe('succeeded');
    }
    // validate and the engine's run share one load of the revision, across three runs
    expect(loads).toHaveLength(1);

    // a new revision is loaded once more, and its change applied
    commitFiles(stack.remote, { 'platform/b.yaml': workspaceYaml('ws-b', 'changed') }, 'edit b');
    const step = nextStep(c);
    c.loop.trigger('push');
    expect((await step).result).toBe('succeeded');
    expect(loads).toHaveLength(2);
    const ws = await stack.api('GET', '/apis/paas.envmgmt.io/v1/projects/platform/workspaces/ws-b');
    expect((ws.body as { metadata: { description?: string } }).metadata.description).toBe(
      'changed',
    );
  });

  it('serves /status as counts and failures, not a list of every resource', async () => {
    commitFiles(
      stack.remote,
      {
        'platform/a.yaml': workspaceYaml('ws-a', 'a'),
        'platform/b.yaml': workspaceYaml('ws-b', 'b'),
      },
      'two workspaces',
    );
    const c = await stack.controller();
    await nextStep(c, (o) => o.result === 'succeeded');
    const status = JSON.parse((await get(c, '/status')).text) as Record<string, unknown>;
    expect(status).toMatchObject({
      lastResult: 'succeeded',
      counts: {
        resources: { Ready: 2, Progressing: 0, Degraded: 0, Drifted: 0, Suspended: 0, total: 2 },
        inventory: 2,
        drift: 0,
      },
      failures: [],
    });
    expect(status).not.toHaveProperty('resources');
    expect(status).not.toHaveProperty('inventory');
    expect(status).not.toHaveProperty('conditions');
  });
});
