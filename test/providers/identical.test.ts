import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Doc, threeWayDiff } from '../../src/providers/support/diff.js';
import { identicalJson } from '../../src/providers/support/identical.js';
import { holeThenOne } from '../helpers/holes.js';

// The planner's "in sync" fast path (a provider's `inSync`) answers for the three-way diff: when
// it says identical, the diff must find nothing, whatever was last applied. Never the other way
// round is asked of it: false only sends the pair to the diff.

/** Values as manifests and live bodies hold them, and the odd ones a bug could bring. */
const leaf = fc.oneof(
  fc.string({ maxLength: 4 }),
  fc.integer({ min: -3, max: 3 }),
  fc.constantFrom(0, -0, 1.5, Number.NaN, Number.POSITIVE_INFINITY, true, false, null, undefined),
);
const { value } = fc.letrec((tie) => ({
  value: fc.oneof({ depthSize: 'small' }, leaf, tie('array'), tie('object')),
  array: fc.array(tie('value'), { maxLength: 3 }),
  object: fc.dictionary(fc.constantFrom('a', 'b', 'name', 'value', '__proto__'), tie('value'), {
    maxKeys: 3,
  }),
}));
/** A managed body: metadata and spec (with variables keyed by name in the diff), as compared. */
const body = fc.record(
  {
    metadata: fc.dictionary(fc.constantFrom('name', 'project', 'labels', 'x'), value, {
      maxKeys: 3,
    }),
    spec: fc.record(
      {
        variables: fc.array(
          fc.record({ name: fc.constantFrom('a', 'b'), value: value }, { requiredKeys: ['name'] }),
          { maxLength: 3 },
        ),
        other: value,
      },
      { requiredKeys: [] },
    ),
  },
  { requiredKeys: [] },
) as fc.Arbitrary<Doc>;

/** `v` rebuilt with its keys in reverse order (own `__proto__` keys kept as own keys). */
function reordered(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(reordered);
  if (typeof v !== 'object' || v === null) return v;
  const out: Record<string, unknown> = {};
  for (const k of Object.keys(v).reverse()) {
    Object.defineProperty(out, k, {
      value: reordered((v as Record<string, unknown>)[k]),
      enumerable: true,
      writable: true,
      configurable: true,
    });
  }
  return out;
}

describe('identicalJson', () => {
  it('says identical only where the three-way diff finds nothing, whatever was last applied', () => {
    fc.assert(
      fc.property(
        body,
        body,
        fc.option(body, { nil: undefined }),
        fc.boolean(),
        (d, other, a, copy) => {
          // half the time live is desired's data again, the case the fast path is for
          const l = copy ? (reordered(d) as Doc) : other;
          if (identicalJson(d, l)) expect(threeWayDiff(d, l, a)).toBeUndefined();
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('says identical for the same data in another object, keys in any order', () => {
    const json = fc.jsonValue().filter((v) => !JSON.stringify(v).includes('-0'));
    fc.assert(
      fc.property(json, body, (v, a) => {
        expect(identicalJson(v, structuredClone(v))).toBe(true);
        expect(identicalJson(v, reordered(v))).toBe(true);
        const d = { metadata: { name: 'n' }, spec: { value: v } };
        const l = reordered(d) as Doc;
        expect(identicalJson(d, l)).toBe(true);
        expect(threeWayDiff(d, l, a)).toBeUndefined();
      }),
      { numRuns: 500 },
    );
  });

  it.each([
    ['a missing key', { a: 1 }, {}],
    ['an extra live field', { a: 1 }, { a: 1, b: 2 }],
    ['undefined against absent', { a: undefined }, {}],
    ['undefined on both sides', { a: undefined }, { a: undefined }],
    ['NaN', { a: Number.NaN }, { a: Number.NaN }],
    ['Infinity', { a: Number.POSITIVE_INFINITY }, { a: Number.POSITIVE_INFINITY }],
    ['a string against a number', { a: '1' }, { a: 1 }],
    ['an array against an object', { a: [] }, { a: {} }],
    ['arrays of other lengths', { a: [1] }, { a: [1, 1] }],
    ['arrays in another order', { a: [1, 2] }, { a: [2, 1] }],
    ['a hole against undefined', { a: holeThenOne() }, { a: [undefined, 1] }],
    ['a date', { a: new Date(0) }, { a: new Date(0) }],
    ['a function', { a: () => 1 }, { a: () => 1 }],
    [
      'a non-enumerable key',
      { a: 1, b: 2 },
      Object.defineProperty({ a: 1, c: 2 }, 'b', { value: 2 }),
    ],
  ])('is not sure of %s (the diff decides)', (_, a, b) => {
    expect(identicalJson(a, b)).toBe(false);
  });

  it.each([
    ['-0 and 0', { a: -0 }, { a: 0 }],
    ['nested data', { a: [{ b: null, c: [true, 'x'] }] }, { a: [{ c: [true, 'x'], b: null }] }],
    ['objects without a prototype', Object.assign(Object.create(null), { a: 1 }), { a: 1 }],
  ])('is identical for %s', (_, a, b) => {
    expect(identicalJson(a, b)).toBe(true);
    expect(threeWayDiff(a as Doc, b as Doc)).toBeUndefined();
  });
});
