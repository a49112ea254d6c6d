import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Action } from '../../src/model/action.js';
import { type Manifest, manifestKey } from '../../src/model/manifest.js';
import { order } from '../../src/reconcile/order.js';
import { act } from './helpers.js';
import { m } from './manifests.js';

// The planner hands the ordering the manifests of its pairings' keys only (every action is one's),
// not every live object and last-applied manifest: the ordering must not care, since an edge
// with an end that has no action orders nothing. Nor may the map's order matter.

const pool: Manifest[] = [
  m.workspace('p', 'w1'),
  m.workspace('p', 'w2'),
  m.service('p', 'vpc1'),
  m.service('p', 'vpc2'),
  m.service('q', 'vpc3'),
  m.instance('p', 'w1', 'i1'),
  m.instance('p', 'w1', 'i2'),
  m.instance('p', 'w2', 'i3'),
  m.instance('q', 'w1', 'i4'),
  m.instance('p', 'w1', 'i5', { dependsOn: [{ kind: 'Workspace', name: 'w2' }] }),
  m.user('u@x.io'),
  m.assignment('p', 'a1', 'u@x.io'),
  m.assignment('q', 'a2', 'u@x.io'),
  m.cluster('p', 'c'),
  m.publish('p', 'bp', 'c'),
  m.controllers('p', 'c'),
];
const TYPES = ['noop', 'create', 'update', 'delete'] as const;

describe('the ordering, given only the keys that have actions', () => {
  it('orders as it does given every manifest, in any order', () => {
    const choice = fc.array(fc.constantFrom(...TYPES, undefined), {
      minLength: pool.length,
      maxLength: pool.length,
    });
    fc.assert(
      fc.property(choice, fc.boolean(), (types, reverse) => {
        const actions: Action[] = [];
        pool.forEach((x, i) => {
          const type = types[i];
          if (type !== undefined) actions.push(act(`${manifestKey(x)}#${type}`, [], type));
        });
        const all = new Map(pool.map((x) => [manifestKey(x), x]));
        const keys = new Set(actions.map((a) => a.key));
        const some = [...all].filter(([k]) => keys.has(k));
        const mine = new Map(reverse ? some.reverse() : some);
        expect(JSON.stringify(order(actions, mine))).toBe(JSON.stringify(order(actions, all)));
      }),
      { numRuns: 500 },
    );
  });
});
