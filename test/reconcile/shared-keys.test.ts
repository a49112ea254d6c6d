import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runSteps } from '../../src/core/slices.js';
import type { Action, ProposedAction } from '../../src/model/action.js';
import { eachKeyEdge, groupMembers, needsOf } from '../../src/model/edges.js';
import { KINDS, type Manifest, manifestKey } from '../../src/model/manifest.js';
import type { LiveObject } from '../../src/model/provider.js';
import { identify } from '../../src/reconcile/ids.js';
import { KnownManifests } from '../../src/reconcile/known-manifests.js';
import { order, orderSteps } from '../../src/reconcile/order.js';
import type { Pairing } from '../../src/reconcile/pair.js';
import { m } from './manifests.js';

// The planner's stages after the pairing look keys up in maps the pairing and the ids already
// made, instead of a map of their own each: what they look up there must be what their own gave.

const pool: Manifest[] = [
  m.workspace('p', 'w1'),
  m.service('p', 'vpc1'),
  m.instance('p', 'w1', 'i1'),
  m.instance('p', 'w1', 'i2', { dependsOn: [{ kind: 'Workspace', name: 'w2' }] }),
  m.user('u@x.io'),
  m.assignment('p', 'a1', 'u@x.io'),
  m.cluster('p', 'c'),
  m.publish('p', 'bp', 'c'),
  m.version('p', 'bv', 'v1.1.0'),
  m.controllers('p', 'c'),
];

/** A live object of `x`'s key, placed where `x` is. */
const liveOf = (x: Manifest): LiveObject => {
  const { name, project, workspace } = x.metadata;
  const ref = {
    kind: x.kind,
    name,
    ...(project ? { project } : {}),
    ...(workspace ? { workspace } : {}),
  };
  return { key: manifestKey(x), ref, body: {} } as LiveObject;
};

describe('KnownManifests', () => {
  // each pool manifest's key paired with: desired, last applied, live only, or nothing at all
  const shape = fc.array(fc.constantFrom('desired', 'lastApplied', 'live', 'none'), {
    minLength: pool.length,
    maxLength: pool.length,
  });

  it('reads as the map of git, else last applied, else a stand-in, in the pairings’ order', () => {
    fc.assert(
      fc.property(shape, fc.boolean(), (shapes, reverse) => {
        const pairings: Pairing[] = pool.map((x, i) => {
          const key = manifestKey(x);
          const s = shapes[i];
          if (s === 'desired') return { key, kind: x.kind, desired: x, live: liveOf(x) };
          if (s === 'lastApplied') return { key, kind: x.kind, lastApplied: x };
          if (s === 'live') return { key, kind: x.kind, live: liveOf(x) };
          return { key, kind: x.kind };
        });
        const sorted = [...pairings].sort((a, b) => (a.key < b.key ? -1 : 1));
        const byKey = new Map(
          (reverse ? [...pairings].reverse() : pairings).map((p) => [p.key, p]),
        );
        const known = new KnownManifests({ pairings: sorted, byKey });
        const expected = new Map<string, Manifest>();
        for (const p of sorted) {
          const k =
            p.desired ??
            p.lastApplied ??
            (p.live &&
              ({
                kind: p.live.ref.kind,
                metadata: {
                  name: p.live.ref.name,
                  project: p.live.ref.project,
                  workspace: p.live.ref.workspace,
                },
              } as Manifest));
          if (k) expected.set(p.key, k);
        }
        expect(known.size).toBe(expected.size);
        expect([...known]).toStrictEqual([...expected]);
        expect([...known.keys()]).toEqual([...expected.keys()]);
        for (const x of [...pool, m.workspace('q', 'none')]) {
          const key = manifestKey(x);
          expect(known.has(key)).toBe(expected.has(key));
          expect(known.get(key)).toStrictEqual(expected.get(key));
        }
        // a stand-in is one object per key, as the map held
        for (const [key, value] of known) expect(known.get(key)).toBe(value);
        // forEach, as the ordering's edges read it: the same entries and objects, in that order
        const each: [string, Manifest][] = [];
        known.forEach((value, key, map) => {
          expect(map).toBe(known);
          each.push([key, value]);
        });
        expect(each).toStrictEqual([...expected]);
        for (const [key, value] of each) expect(known.get(key)).toBe(value);
        // and the edges read with forEach are those read with for…of (a stand-in of a kind whose
        // edges need its spec throws in both)
        expect(outcome(() => edgesOf(known))).toStrictEqual(outcome(() => formerEdges(expected)));
      }),
      { numRuns: 300 },
    );
  });
});

/** What `f` gives, or the message it throws. */
function outcome<T>(f: () => T): { value: T } | { threw: string } {
  try {
    return { value: f() };
  } catch (err) {
    return { threw: String(err) };
  }
}

/** Every edge eachKeyEdge visits, in its order. */
function edgesOf(manifests: ReadonlyMap<string, Manifest>): string[][] {
  const out: string[][] = [];
  eachKeyEdge(manifests, (before, after, rule) => out.push([before, after, rule]));
  return out;
}

/** The edges as the former eachKeyEdge visited them, reading the map with `for…of`. */
function formerEdges(manifests: ReadonlyMap<string, Manifest>): string[][] {
  const out: string[][] = [];
  const members = groupMembers(manifests);
  for (const [after, x] of manifests) {
    for (const n of needsOf(x)) {
      const befores = members.get(n.target);
      if (befores === undefined) {
        if (n.target !== after && manifests.has(n.target)) out.push([n.target, after, n.rule]);
        continue;
      }
      for (const before of befores) {
        if (before !== after && manifests.has(before)) out.push([before, after, n.rule]);
      }
    }
  }
  return out;
}

describe('eachKeyEdge', () => {
  const more: Manifest[] = [
    ...pool,
    m.service('p', 'vpc2'),
    m.instance('p', 'w2', 'i3'),
    m.workspace('p', 'w2'),
    m.service('q', 'vpc3'),
    m.instance('q', 'w1', 'i4'),
  ];
  it('visits the edges the former for…of read visited, in the same order, for any map order', () => {
    fc.assert(
      fc.property(fc.shuffledSubarray(more), (xs) => {
        const map = new Map(xs.map((x) => [manifestKey(x), x]));
        const edges = edgesOf(map);
        expect(edges).toStrictEqual(formerEdges(map));
      }),
      { numRuns: 500 },
    );
  });
});

describe('identify', () => {
  const types = fc.constantFrom('noop', 'create', 'update', 'delete', 'publish');
  const proposals = fc.array(fc.tuple(fc.integer({ min: 0, max: 4 }), types), { maxLength: 30 });
  const proposal = ([k, type]: [number, string]): ProposedAction =>
    ({
      type,
      key: `Workspace/p/w${k}`,
      target: { kind: 'Workspace', name: `w${k}`, project: 'p' },
      reason: { code: 'changed', message: 'test' },
      changes: [],
    }) as unknown as ProposedAction;

  it('numbers each key’s actions of one type in their order, and groups the actions by key', () => {
    fc.assert(
      fc.property(proposals, (list) => {
        const proposed = list.map(proposal);
        const { actions, byKey } = identify(proposed);
        const seen = new Map<string, number>();
        const groups = new Map<string, Action[]>();
        actions.forEach((a, i) => {
          const p = proposed[i]!;
          const n = (seen.get(`${p.key}#${p.type}`) ?? 0) + 1;
          seen.set(`${p.key}#${p.type}`, n);
          expect(a.id).toBe(n === 1 ? `${p.key}#${p.type}` : `${p.key}#${p.type}#${n}`);
          expect(JSON.stringify(a)).toBe(JSON.stringify({ ...p, id: a.id, dependsOn: [] }));
          groups.set(a.key, [...(groups.get(a.key) ?? []), a]);
        });
        expect([...byKey.keys()]).toEqual([...groups.keys()]);
        for (const [key, group] of groups) {
          expect(byKey.get(key)!.length).toBe(group.length);
          byKey.get(key)!.forEach((a, i) => {
            expect(a).toBe(group[i]);
          });
        }
      }),
      { numRuns: 300 },
    );
  });
});

describe('the ordering, given the actions grouped by key', () => {
  it('orders as it does when it groups them itself', () => {
    const types = fc.array(fc.constantFrom('noop', 'create', 'update', 'delete', undefined), {
      minLength: pool.length,
      maxLength: pool.length,
    });
    fc.assert(
      fc.property(types, (chosen) => {
        const proposed: ProposedAction[] = [];
        pool.forEach((x, i) => {
          const type = chosen[i];
          if (type === undefined) return;
          const p = {
            type,
            key: manifestKey(x),
            target: { kind: x.kind, name: x.metadata.name },
            reason: { code: 'changed', message: 'test' },
            changes: [],
          } as unknown as ProposedAction;
          proposed.push(
            p,
            ...(type === 'delete' ? [{ ...p, type: 'create' } as ProposedAction] : []),
          );
        });
        const manifests = new Map(pool.map((x) => [manifestKey(x), x]));
        const { actions, byKey } = identify(proposed);
        const grouped = runSteps(orderSteps(actions, manifests, byKey));
        expect(JSON.stringify(grouped)).toBe(JSON.stringify(order(actions, manifests)));
      }),
      { numRuns: 300 },
    );
  });
});

describe('needsOf', () => {
  const others = ['Policy', 'PowerSchedule', 'ChangeWindow'].map(
    (kind) => ({ kind, metadata: { name: 'x', project: 'p' } }) as unknown as Manifest,
  );
  const every = [...pool, ...others];

  it('answers a manifest without dependsOn as the whole walk does, for every kind', () => {
    expect(new Set(every.map((x) => x.kind))).toEqual(new Set(KINDS));
    for (const x of every) {
      if (x.metadata.dependsOn !== undefined) continue;
      const walked = needsOf({ ...x, metadata: { ...x.metadata, dependsOn: [] } } as Manifest);
      expect(needsOf(x)).toEqual(walked);
    }
  });
});
