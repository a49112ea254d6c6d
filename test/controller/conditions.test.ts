import { describe, expect, it } from 'vitest';
import type { ResourceReport, RunReport } from '../../src/controller/engine/ports.js';
import { conditionsOf, countConditions } from '../../src/controller/status/conditions.js';

const r = (key: string, over: Partial<ResourceReport> = {}): ResourceReport => ({
  key,
  kind: key.split('/')[0] as ResourceReport['kind'],
  action: 'noop',
  reason: 'in-sync',
  message: 'in sync',
  outcome: 'succeeded',
  ...over,
});
const report = (over: Partial<RunReport>): RunReport => ({
  resources: [],
  inventory: [],
  diagnostics: [],
  drift: [],
  blocked: false,
  interrupted: false,
  ...over,
});
const APPLY = { applying: true, suspended: false };

describe('conditionsOf', () => {
  it('gives each resource one condition with a reason, whatever its number of actions', () => {
    const out = conditionsOf(
      report({
        resources: [
          r('ComputeInstance/p/w/a', { action: 'create', reason: 'absent' }),
          r('ComputeInstance/p/w/a', { action: 'publish', reason: 'not-deployed' }),
          r('Workspace/p/b', {
            action: 'update',
            reason: 'drift',
            outcome: 'failed',
            error: '500',
          }),
          r('Workspace/p/c'),
          r('Workspace/p/d'),
        ],
        drift: ['Workspace/p/b', 'Workspace/p/d'],
        deferred: ['Workspace/p/e'],
        pruneHeld: { count: 1, limit: 0, keys: ['Workspace/p/f'], message: 'held' },
      }),
      APPLY,
      [],
      '2026-01-01T00:00:00.000Z',
    );
    expect(out.map((c) => [c.key, c.condition, c.reason])).toEqual([
      ['ComputeInstance/p/w/a', 'Ready', 'Applied'],
      ['Workspace/p/b', 'Degraded', 'ActionFailed'],
      ['Workspace/p/c', 'Ready', 'InSync'],
      ['Workspace/p/d', 'Drifted', 'Drift'],
      ['Workspace/p/e', 'Degraded', 'BackingOff'],
      ['Workspace/p/f', 'Degraded', 'PruneBlocked'],
    ]);
    expect(out[0]).toMatchObject({ project: 'p', workspace: 'w', name: 'a', order: 0 });
    expect(countConditions(out)).toMatchObject({ Ready: 2, Degraded: 3, Drifted: 1, total: 6 });
  });

  it('keeps lastTransitionTime while condition and reason stay, and drops what was pruned', () => {
    const first = conditionsOf(report({ resources: [r('Workspace/p/a')] }), APPLY, [], 't1');
    const same = conditionsOf(report({ resources: [r('Workspace/p/a')] }), APPLY, first, 't2');
    expect(same[0]?.lastTransitionTime).toBe('t1');
    const planned = r('Workspace/p/a', { action: 'update', reason: 'changed', outcome: 'planned' });
    const suspended = conditionsOf(
      report({ resources: [planned] }),
      { applying: false, suspended: true },
      same,
      't3',
    );
    expect(suspended[0]).toMatchObject({ condition: 'Suspended', lastTransitionTime: 't3' });
    const pruned = r('Workspace/p/a', { action: 'delete', reason: 'removed-from-git' });
    expect(conditionsOf(report({ resources: [pruned] }), APPLY, same, 't4')).toEqual([]);
  });

  it('counts a drift found while suspended as Drifted, not as a suspended change', () => {
    // the dashboard showed such a resource under "Drifted 0": the summary hid the drift
    const SUSPENDED = { applying: false, suspended: true };
    const drift = r('Workspace/p/a', {
      action: 'update',
      reason: 'drift',
      outcome: 'planned',
      message: 'spec.description: platform has "x", git says "y"',
    });
    const change = r('Workspace/p/b', { action: 'update', reason: 'changed', outcome: 'planned' });
    const out = conditionsOf(
      report({ resources: [drift, change], drift: ['Workspace/p/a'] }),
      SUSPENDED,
      [],
      't1',
    );
    expect(out.map((c) => [c.condition, c.reason])).toEqual([
      ['Drifted', 'Drift'],
      ['Suspended', 'Suspended'],
    ]);
    expect(out[0]?.message).toBe(
      'spec.description: platform has "x", git says "y"; suspended: not corrected',
    );
    expect(countConditions(out)).toMatchObject({ Drifted: 1, Suspended: 1 });
  });

  it('hands back the previous condition itself while nothing about it changed', () => {
    // an idle interval of a large controller: 10,000 unchanged conditions are not rebuilt and
    // kept anew (promoted to V8's old space and dropped a run later) but stay the same objects
    const resources = [r('Workspace/p/a'), r('Workspace/p/b')];
    const first = conditionsOf(report({ resources }), APPLY, [], 't1');
    const again = conditionsOf(report({ resources }), APPLY, first, 't2');
    expect(again[0]).toBe(first[0]);
    expect(again[1]).toBe(first[1]);
    const moved = conditionsOf(report({ resources: [resources[1]!] }), APPLY, again, 't3');
    expect(moved[0]).not.toBe(again[1]);
    expect(moved[0]).toMatchObject({ key: 'Workspace/p/b', order: 0, lastTransitionTime: 't1' });
  });
});
