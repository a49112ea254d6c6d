import { describe, expect, it } from 'vitest';
import { commitFiles } from './helpers/git-remote.js';
import { WORKSPACES, workspaceYaml } from './helpers/platform-yaml.js';
import { control, nextStep, workspaceDescription } from './helpers/stack.js';
import { useStack } from './helpers/use-stack.js';

/**
 * The controller's status lives in the state store (issue 9, defect 4): restarted while HEAD is
 * invalid, it still knows the last good revision, keeps reconciling and healing it, and shows
 * the rejected revision with its diagnostics and the run history of before the restart.
 */
const stack = useStack();

const description = (name: string) => workspaceDescription(stack, name);

describe('restart while HEAD is invalid', () => {
  it('heals from the persisted last good revision and shows why HEAD is rejected', async () => {
    const good = commitFiles(
      stack.remote,
      { 'platform/ws.yaml': workspaceYaml('ws-a', 'one') },
      'good',
    );
    const a = await stack.controller();
    await nextStep(a, (o) => o.result === 'succeeded');
    const bad = commitFiles(
      stack.remote,
      { 'platform/ws.yaml': 'kind: Workspace\nmetadata: [\n' },
      'bad',
    );
    const rejected = nextStep(a, (o) => o.result === 'invalid');
    a.loop.trigger('push');
    await rejected;
    await a.stop();

    await stack.api('POST', WORKSPACES, {
      apiVersion: 'paas.envmgmt.io/v1',
      kind: 'Workspace',
      metadata: { name: 'ws-a', project: 'platform', description: 'by hand' },
    });
    const b = await stack.controller(); // a fresh cache: a new clone
    const first = await nextStep(b);
    expect(first.result).toBe('invalid'); // HEAD is still rejected...
    expect(first.revision).toBe(good); // ...and the last good revision was reconciled
    expect(await description('ws-a')).toBe('one'); // drift healed
    const status = (await control(b, 'GET', '/api/v1/status')).body;
    expect(status.sourceReady).toBe(false);
    expect(status.revisions.lastGood.revision).toBe(good);
    expect(status.revisions.fetched.revision).toBe(bad);
    expect(status.rejected[0].revision).toBe(bad);
    expect(status.rejected[0].diagnostics[0]).toMatchObject({ file: 'ws.yaml', severity: 'error' });
    expect(status.rejected[0].diagnostics[0].line).toBeGreaterThan(0);
    const runs = (await control(b, 'GET', '/api/v1/runs')).body.items;
    expect(runs.map((r: { result: string }) => r.result)).toEqual([
      'invalid',
      'invalid',
      'succeeded',
    ]);
    const ws = (await control(b, 'GET', '/api/v1/resources')).body.items[0];
    expect(ws).toMatchObject({
      key: 'Workspace/platform/ws-a',
      condition: 'Ready',
      reason: 'DriftCorrected',
    });
  });
});
