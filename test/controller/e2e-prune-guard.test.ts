import { describe, expect, it } from 'vitest';
import { emulatorControl } from '../../src/emulator/admin/client.js';
import { commitFiles } from './helpers/git-remote.js';
import { WORKSPACES, workspaceYaml } from './helpers/platform-yaml.js';
import { nextStep, workspaceDescription } from './helpers/stack.js';
import { useStack } from './helpers/use-stack.js';

/**
 * The prune guard (issue 9, defect 3): more deletions than the limit holds back the deletions
 * only; drift is still healed, the reason is surfaced and logged, and the held prune can be
 * approved for exactly the resources it named.
 */
const stack = useStack();

const description = (name: string) => workspaceDescription(stack, name);

describe('prune over the limit', () => {
  it('holds back the deletions only, heals drift, says why, and deletes once approved', async () => {
    commitFiles(
      stack.remote,
      Object.fromEntries(
        ['keep', 'old-1', 'old-2', 'old-3'].map((n) => [
          `platform/${n}.yaml`,
          workspaceYaml(n, 'from-git'),
        ]),
      ),
      'four workspaces',
    );
    const c = await stack.controller({ maxDeletes: 2 });
    await nextStep(c, (o) => o.result === 'succeeded');
    commitFiles(
      stack.remote,
      { 'platform/old-1.yaml': null, 'platform/old-2.yaml': null, 'platform/old-3.yaml': null },
      'drop three',
    );
    await stack.api('POST', WORKSPACES, {
      apiVersion: 'paas.envmgmt.io/v1',
      kind: 'Workspace',
      metadata: { name: 'keep', project: 'platform', description: 'changed by hand' },
    });
    const held = nextStep(c);
    c.loop.trigger('test');
    expect((await held).result).toBe('prune-blocked');

    expect(await description('keep')).toBe('from-git'); // drift healed despite the guard
    for (const n of ['old-1', 'old-2', 'old-3']) expect(await description(n)).toBe('from-git');
    const blocked = c.status.blockedPrune;
    expect(blocked).toMatchObject({ count: 3, limit: 2 });
    expect(blocked?.keys).toEqual([
      'Workspace/platform/old-1',
      'Workspace/platform/old-2',
      'Workspace/platform/old-3',
    ]);
    expect(c.status.lastError).toMatch(/3 resources would be pruned.*limit of 2/);
    expect(c.status.lastError).not.toMatch(/--force-deletes/);
    expect(stack.logs.some((l) => l.includes('"event":"prune-blocked"'))).toBe(true);
    expect(
      stack.logs.some((l) => l.includes('"event":"drift"') && l.includes('"corrected":true')),
    ).toBe(true);

    expect(await c.approvePrune('no-such-run')).toBe(false);
    const approved = nextStep(c, (o) => o.result === 'succeeded');
    expect(await c.approvePrune(blocked!.runId)).toBe(true);
    await approved;
    for (const n of ['old-1', 'old-2', 'old-3']) expect(await description(n)).toBeUndefined();
    expect(await description('keep')).toBe('from-git');
    expect(c.status.blockedPrune).toBeUndefined();
    expect(c.status.lastError).toBeUndefined();
  });

  it('logs drift as not corrected when its correction failed', async () => {
    commitFiles(stack.remote, { 'platform/keep.yaml': workspaceYaml('keep', 'git') }, 'one');
    const c = await stack.controller();
    await nextStep(c, (o) => o.result === 'succeeded');
    await stack.api('POST', WORKSPACES, {
      apiVersion: 'paas.envmgmt.io/v1',
      kind: 'Workspace',
      metadata: { name: 'keep', project: 'platform', description: 'changed by hand' },
    });
    await emulatorControl(stack.emulator.url, 'POST', '/_emulator/faults', {
      path: '^/apis/.*/workspaces$',
      method: 'POST',
      status: 400,
      count: 100,
    });
    const failed = nextStep(c);
    c.loop.trigger('test');
    expect((await failed).result).toBe('failed');
    const drift = stack.logs.filter((l) => l.includes('"event":"drift"'));
    expect(drift.at(-1)).toContain('"corrected":false');
  });
});
