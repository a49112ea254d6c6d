import { describe, expect, it } from 'vitest';
import { KINDS, type Manifest, manifestKey } from '../../src/model/manifest.js';
import type { LiveObject, PlanInput } from '../../src/model/provider.js';
import { type PlannerRegistry, plan } from '../../src/reconcile/planner.js';
import { m } from './manifests.js';

/** Every kind planned by `planOne`. */
const registry = (planOne: (input: PlanInput) => []): PlannerRegistry =>
  Object.fromEntries(KINDS.map((k) => [k, { plan: planOne }])) as unknown as PlannerRegistry;

const ws = {
  ...m.workspace('p', 'a'),
  metadata: { name: 'a', project: 'p', labels: { team: 'x' } },
} as Manifest;
const live = (): LiveObject => ({
  key: manifestKey(ws),
  ref: { kind: 'Workspace', name: 'a', project: 'p' },
  body: { metadata: { name: 'a', project: 'p', labels: { team: 'x' } } },
});

// the planner hands providers its inputs themselves, read-only, instead of a copy per pairing
// (at 100,000 resources the copies were most of an idle plan's CPU and garbage): a provider that
// writes to what it is given must fail at once, never change the caller's manifests or live state
describe('what a provider is given to plan', () => {
  const writes: [string, (input: PlanInput) => void][] = [
    [
      'a desired manifest',
      (i) => {
        (i.desired!.metadata as { name: string }).name = 'b';
      },
    ],
    [
      'a nested desired field',
      (i) => {
        i.desired!.metadata.labels!.team = 'y';
      },
    ],
    [
      'the live body',
      (i) => {
        (i.live!.body as { extra?: number }).extra = 1;
      },
    ],
    [
      'the live ref',
      (i) => {
        (i.live!.ref as { name: string }).name = 'b';
      },
    ],
    [
      'a last-applied manifest',
      (i) => {
        delete i.lastApplied!.metadata.labels;
      },
    ],
  ];
  for (const [what, write] of writes) {
    it(`cannot be written to: ${what}`, () => {
      const desired = structuredClone(ws);
      const observed = live();
      const last = structuredClone(ws);
      const before = structuredClone([desired, observed, last]);
      const providers = registry((input) => {
        write(input);
        return [];
      });
      expect(() =>
        plan([desired], [observed], new Map([[manifestKey(ws), last]]), { providers }),
      ).toThrow(TypeError);
      expect([desired, observed, last]).toEqual(before);
    });
  }

  it('is the caller’s values, unchanged, and the plan the same when planned again', () => {
    const desired = structuredClone(ws);
    const observed = live();
    const last = structuredClone(ws);
    const seen: PlanInput[] = [];
    const providers = registry((input) => {
      seen.push(input);
      return [];
    });
    const args = [[desired], [observed], new Map([[manifestKey(ws), last]])] as const;
    const first = plan(...args, { providers });
    expect(plan(...args, { providers })).toEqual(first);
    expect(seen[0]).toMatchObject({ desired, live: observed, lastApplied: last });
    expect(desired).toEqual(ws);
    expect(observed).toEqual(live());
  });
});
