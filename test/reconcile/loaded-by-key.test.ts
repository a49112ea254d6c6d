import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { LoadedManifest } from '../../src/model/manifest.js';
import { LoadedByKey } from '../../src/reconcile/run-parts.js';

// A run looks its loaded manifests up by key only for the actions that create, update or fail:
// the map is made when first read, and must read as the map it replaces.
describe('LoadedByKey', () => {
  it('reads as new Map(manifests.map((m) => [m.key, m])), a key given twice included', () => {
    const key = fc.constantFrom('Workspace/p/a', 'Workspace/p/b', 'User/u', 'Service/p/v', '');
    fc.assert(
      fc.property(fc.array(key, { maxLength: 8 }), (keys) => {
        const manifests = keys.map((k, i) => ({ key: k, i }) as unknown as LoadedManifest);
        const lazy = new LoadedByKey(manifests);
        const map = new Map(manifests.map((m) => [m.key, m]));
        for (const k of ['Workspace/p/a', 'User/u', '', 'absent']) {
          expect(lazy.get(k)).toBe(map.get(k));
          expect(lazy.has(k)).toBe(map.has(k));
        }
        expect(lazy.size).toBe(map.size);
        expect([...lazy]).toStrictEqual([...map]);
        expect([...lazy.entries()]).toStrictEqual([...map.entries()]);
        expect([...lazy.keys()]).toStrictEqual([...map.keys()]);
        expect([...lazy.values()]).toStrictEqual([...map.values()]);
        const seen: unknown[] = [];
        lazy.forEach((value, k, self) => {
          expect(self).toBe(lazy);
          seen.push([k, value]);
        });
        expect(seen).toStrictEqual([...map]);
      }),
      { numRuns: 500 },
    );
  });
});
