import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ProposedAction } from '../../src/model/action.js';
import { assignIds, copyOf } from '../../src/reconcile/ids.js';

// Ids and dependency lists are set on copies made without object spread (a quarter of a second
// for 100,000 actions): the copies must be what `{ ...a, id, dependsOn }` gave, key for key and in
// the same order, or a plan's JSON would change.
const key = fc.constantFrom('type', 'key', 'id', 'dependsOn', 'target', 'reason', 'a', '10', '2');
const object = fc.dictionary(key, fc.jsonValue(), { maxKeys: 8 });

describe('copyOf', () => {
  it('copies as a spread does, fields set afterwards in their place', () => {
    fc.assert(
      fc.property(object, (o) => {
        const copy = copyOf(o);
        copy.id = 'x';
        copy.dependsOn = [];
        const spread = { ...o, id: 'x', dependsOn: [] };
        expect(Object.keys(copy)).toEqual(Object.keys(spread));
        expect(copy).toStrictEqual(spread);
        expect(JSON.stringify(copy)).toBe(JSON.stringify(spread));
      }),
      { numRuns: 500 },
    );
  });

  it('gives the ids and shapes the spread gave', () => {
    const p = (k: string, type: string): ProposedAction =>
      ({
        type,
        key: k,
        target: { kind: 'Workspace', name: k },
        reason: { code: 'in-sync', message: 'in sync' },
        changes: [],
      }) as unknown as ProposedAction;
    const proposed = [
      p('a', 'noop'),
      p('b', 'update'),
      p('b', 'publish'),
      p('b', 'update'),
      p('a', 'noop'),
    ];
    const actions = assignIds(proposed);
    expect(actions.map((a) => a.id)).toEqual([
      'a#noop',
      'b#update',
      'b#publish',
      'b#update#2',
      'a#noop#2',
    ]);
    expect(JSON.stringify(actions[1])).toBe(
      JSON.stringify({ ...proposed[1], id: 'b#update', dependsOn: [] }),
    );
  });
});
