import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { basePathOf, requestTarget } from '../../src/providers/client/wire.js';

type Query = Record<string, string | number | boolean | undefined>;

/** What the client sent when it built a URL per attempt: the reference. */
function viaUrl(baseUrl: string, path: string, query: Query | undefined): string {
  const url = new URL(baseUrl + path);
  for (const [name, value] of Object.entries(query ?? {})) {
    if (value !== undefined) url.searchParams.set(name, String(value));
  }
  return url.pathname + url.search;
}

const BASES = ['http://platform.test', 'https://h:8443/prefix', 'http://h/a%20b', 'http://h/p?x=1'];

describe('the request target', () => {
  it('is what new URL(base + path) with searchParams.set gave, for paths that need nothing and paths that do', () => {
    const paths = [
      '/apis/paas.envmgmt.io/v1/projects/ml/workspaces',
      '/auth/v1/users/u-1/',
      "/a/b-c_d.e~f!$&'()*+,;=:@",
      '/a/%41%2F',
      '/a b/é',
      '/a/./b',
      '/a/../b',
      '/a/%2e%2E/b',
      '/a/.well-known/..x',
      '/a?x=1&y=2',
      '/a#frag',
      '/a\\b',
      '/a/"<>`{}|^',
      '',
      '/',
      '//double',
    ];
    const queries: (Query | undefined)[] = [
      undefined,
      {},
      { 'fail-on-exists': true },
      { computeType: 'gpu a/b&c=d', limit: 1000, skip: undefined },
      { x: 'replaced' },
    ];
    for (const base of BASES) {
      for (const path of paths) {
        for (const query of queries) {
          expect(requestTarget(base, basePathOf(base), path, query), `${base} ${path}`).toBe(
            viaUrl(base, path, query),
          );
        }
      }
    }
  });

  it('agrees with the URL parser on any path', () => {
    const segment = fc.string({
      unit: fc.constantFrom(..."aZ09-._~!$&'()*+,;=:@%2eE/ ?#é\\".split('')),
      maxLength: 12,
    });
    fc.assert(
      fc.property(
        fc.constantFrom(...BASES),
        fc.array(segment, { maxLength: 4 }),
        fc.dictionary(fc.string({ maxLength: 4 }), fc.oneof(fc.string(), fc.integer()), {
          maxKeys: 3,
        }),
        (base, segments, query) => {
          const path = segments.map((s) => `/${s}`).join('');
          expect(requestTarget(base, basePathOf(base), path, query)).toBe(
            viaUrl(base, path, query),
          );
        },
      ),
      { numRuns: 2_000 },
    );
  });
});
