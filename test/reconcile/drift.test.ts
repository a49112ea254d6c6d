import { describe, expect, it, vi } from 'vitest';
import type { ProposedAction } from '../../src/model/action.js';
import { type Manifest, manifestKey } from '../../src/model/manifest.js';
import type { LiveObject } from '../../src/model/provider.js';
import { createProviderRegistry } from '../../src/providers/index.js';
import { markDrift } from '../../src/reconcile/drift.js';
import { plan } from '../../src/reconcile/planner.js';
import { m } from './manifests.js';

const box = m.instance('p', 'w', 'box');
const create: ProposedAction = {
  type: 'create',
  key: manifestKey(box),
  target: { kind: 'ComputeInstance', name: 'box', project: 'p', workspace: 'w' },
  desired: box,
  reason: { code: 'absent', message: 'compute instance p/w/box does not exist on the platform' },
  changes: [],
};

describe('markDrift', () => {
  it('marks what a resource needs when git still says what was last applied', () => {
    const [a] = markDrift([create], box, structuredClone(box));
    expect(a?.reason.code).toBe('drift');
    expect(a?.reason.message).toMatch(/does not exist on the platform .*outside git/);
    expect(create.reason.code).toBe('absent'); // input untouched
  });

  it('compares no manifests when there is nothing to mark (an in-sync resource)', () => {
    // every in-sync resource of every interval came here: two JSON copies of each manifest for
    // nothing, a controller's largest per-interval garbage after the observed lists
    const stringify = vi.spyOn(JSON, 'stringify');
    try {
      expect(markDrift([], box, structuredClone(box))).toEqual([]);
      const healed = { ...create, reason: { code: 'drift', message: 'x' } } as ProposedAction;
      expect(markDrift([healed], box, structuredClone(box))).toEqual([healed]);
      expect(stringify).not.toHaveBeenCalled();
    } finally {
      stringify.mockRestore();
    }
  });

  it('leaves a change that git asked for (or a first apply) as it is', () => {
    const changed = { ...box, metadata: { ...box.metadata, description: 'new' } } as Manifest;
    expect(markDrift([create], changed, box)[0]?.reason.code).toBe('absent');
    expect(markDrift([create], box, undefined)[0]?.reason.code).toBe('absent');
  });
});

describe('plan with self-heal off', () => {
  it('does not recreate a deleted instance nor power on one powered off outside git', () => {
    const providers = createProviderRegistry();
    const applied = new Map([[manifestKey(box), box]]);
    const off: LiveObject = {
      key: manifestKey(box),
      ref: create.target,
      body: JSON.parse(JSON.stringify(box)),
      status: 'success',
      powerState: 'off',
    };
    for (const live of [[], [off]]) {
      const healing = plan([box], live, applied, { providers });
      expect(healing.actions.every((a) => a.reason.code === 'drift')).toBe(true);
      expect(healing.actions.length).toBeGreaterThan(0);
      const reported = plan([box], live, applied, { providers, selfHeal: false });
      expect(reported.actions.map((a) => a.type)).toEqual(['noop']);
      expect(reported.diagnostics.some((d) => d.message.startsWith('drift not corrected'))).toBe(
        true,
      );
    }
  });
});
