import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { SecretSource } from '../../src/model/manifest.js';
import { secretReferences } from '../../src/reconcile/preflight.js';

/** The walk as it was before it kept one path (a copy per level, a list per object): the reference. */
function asBefore(value: unknown, path: (string | number)[] = []): unknown[] {
  if (Array.isArray(value)) return value.flatMap((v, i) => asBefore(v, [...path, i]));
  if (value === null || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => {
    if (k === 'passwordFrom' && isSource(v)) {
      return [{ path: [...path, k, 'env' in v ? 'env' : 'file'], source: v }];
    }
    return asBefore(v, [...path, k]);
  });
}

function isSource(v: unknown): v is SecretSource {
  if (v === null || typeof v !== 'object') return false;
  const o = v as { env?: unknown; file?: unknown };
  return typeof o.env === 'string' || typeof o.file === 'string';
}

// JSON values with `passwordFrom` keys about: sources (env, file, both, neither, wrong types),
// nested under objects and arrays, beside keys that look like array indexes
const source = fc.oneof(
  fc.record({ env: fc.string() }),
  fc.record({ file: fc.string() }),
  fc.record({ env: fc.string(), file: fc.string() }),
  fc.record({ env: fc.integer() }),
  fc.constant(null),
  fc.string(),
);
const key = fc.oneof(fc.constantFrom('passwordFrom', 'users', '0', '10', 'spec'), fc.string());
const { value } = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.jsonValue({ maxDepth: 1 }),
    fc.array(tie('value'), { maxLength: 4 }),
    fc.dictionary(key, fc.oneof(tie('value'), source), { maxKeys: 5 }),
  ),
}));

describe('secret references of a manifest', () => {
  it('are found as the whole walk found them: same references, paths and order', () => {
    fc.assert(
      fc.property(value, (v) => {
        expect(secretReferences(v)).toEqual(asBefore(v));
      }),
      { numRuns: 2000 },
    );
  });

  it('name the path to the variable or file, through arrays', () => {
    const manifest = {
      spec: {
        users: [{ name: 'a' }, { passwordFrom: { env: 'A_PASSWORD' } }],
        passwordFrom: { file: '/run/pw' },
      },
    };
    expect(secretReferences(manifest)).toEqual([
      { path: ['spec', 'users', 1, 'passwordFrom', 'env'], source: { env: 'A_PASSWORD' } },
      { path: ['spec', 'passwordFrom', 'file'], source: { file: '/run/pw' } },
    ]);
  });
});
