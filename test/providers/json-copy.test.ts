import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsonCopy } from '../../src/providers/support/json-copy.js';

/** What the compared and sent form of a manifest was made with: JSON there and back. */
const viaJson = (v: unknown) => JSON.parse(JSON.stringify(v)) as unknown;

/** Same value, same key order, own `__proto__` keys and no `-0` (which `toEqual` lets by). */
function expectSameAsJson(value: unknown): void {
  const copied = jsonCopy(value);
  expect(copied).toStrictEqual(viaJson(value));
  expect(JSON.stringify(copied)).toBe(JSON.stringify(viaJson(value)));
  expect(Object.is(jsonCopy(-0), 0)).toBe(true);
}

// the planner's managed bodies are copied without the JSON text in between: the copy must be
// exactly what JSON gave back, or a plan could change
describe('jsonCopy', () => {
  it('is what JSON gives back for any JSON-like value', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => expectSameAsJson(v)),
      { numRuns: 500 },
    );
  });

  it('is what JSON gives back for values JSON rewrites or drops', () => {
    const odd = Object.create(null) as Record<string, unknown>;
    odd.b = 1;
    odd.a = [undefined, () => 1, Symbol('s'), Number.NaN, -Infinity, -0];
    const sparse: number[] = [];
    sparse[0] = 1;
    sparse[2] = 3;
    const value = {
      z: 1,
      10: 'ten',
      2: 'two',
      undefinedField: undefined,
      fn: () => 1,
      when: new Date(0),
      boxed: new Number(3),
      withJson: { toJSON: () => 'as text' },
      map: new Map([[1, 2]]),
      sparse,
      nested: { odd, deeper: [{ x: undefined, y: null }] },
    };
    Object.defineProperty(value, '__proto__', { value: { polluted: true }, enumerable: true });
    expectSameAsJson(value);
    const copied = jsonCopy(value) as Record<string, unknown>;
    expect(Object.getPrototypeOf(copied)).toBe(Object.prototype);
    expect(Object.hasOwn(copied, '__proto__')).toBe(true);
    expect(() => jsonCopy({ big: 1n })).toThrow(TypeError);
  });

  it('copies: the result shares no object with the value, and a frozen value gives a writable copy', () => {
    const value = Object.freeze({ metadata: Object.freeze({ labels: Object.freeze({ a: '1' }) }) });
    const copied = jsonCopy(value) as { metadata: { labels: Record<string, string> } };
    expect(copied.metadata).not.toBe(value.metadata);
    copied.metadata.labels.a = '2';
    expect(value.metadata.labels.a).toBe('1');
  });
});
