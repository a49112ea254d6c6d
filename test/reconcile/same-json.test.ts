import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { sameJson } from '../../src/reconcile/same-json.js';

/** Values JSON has rules for: non-finite numbers, `-0`, undefined and functions, a `toJSON`. */
const odd = fc.constantFrom<unknown>(
  Number.NaN,
  Number.POSITIVE_INFINITY,
  -0,
  0,
  undefined,
  null,
  () => 1,
  new Date(0),
  { toJSON: () => 'x' },
  'x',
);
const value = fc.letrec((tie) => ({
  leaf: fc.oneof(fc.jsonValue({ maxDepth: 1 }), odd),
  node: fc.oneof(
    { depthSize: 'small' },
    tie('leaf'),
    fc.array(tie('node'), { maxLength: 4 }),
    fc.dictionary(fc.constantFrom('a', 'b', 'c', '1', '__proto__'), tie('node'), { maxKeys: 4 }),
  ),
})).node;

describe('sameJson', () => {
  it('says what comparing the two JSON texts says', () => {
    fc.assert(
      fc.property(value, value, (a, b) => {
        expect(sameJson(a, b)).toBe(JSON.stringify(a) === JSON.stringify(b));
      }),
      { numRuns: 3000 },
    );
  });

  it('agrees with JSON on a value and its copy, and on the cases JSON has rules for', () => {
    fc.assert(
      fc.property(value, (a) => {
        const copy = structuredCloneOrSelf(a);
        expect(sameJson(a, copy)).toBe(JSON.stringify(a) === JSON.stringify(copy));
      }),
    );
    expect(sameJson({ a: 1, b: 2 }, { b: 2, a: 1 })).toBe(false); // key order is JSON's too
    expect(sameJson({ a: 1, c: undefined }, { a: 1 })).toBe(true);
    expect(sameJson({ a: 1 }, { a: 1, c: null })).toBe(false);
    expect(sameJson([undefined], [null])).toBe(true);
    expect(sameJson(Number.NaN, null)).toBe(true);
    expect(sameJson(-0, 0)).toBe(true);
    expect(sameJson({ d: new Date(0) }, { d: '1970-01-01T00:00:00.000Z' })).toBe(true);
  });
});

function structuredCloneOrSelf(v: unknown): unknown {
  try {
    return structuredClone(v);
  } catch {
    return v; // functions cannot be cloned: the value itself
  }
}
