import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { KINDS } from '../../src/model/manifest.js';
import { byKind } from '../../src/reconcile/observe.js';

// Observe groups the manifests and refs by kind in one pass; it filtered them once per kind
// (twelve passes over 100,000 of each). Each kind's group must be what its filter gave.

const kind = fc.constantFrom(...KINDS, 'Unknown');
const item = fc.record({ kind, id: fc.nat(50) });

describe('byKind', () => {
  it('gives each kind what a filter by that kind gave, in the same order', () => {
    fc.assert(
      fc.property(fc.array(item, { maxLength: 200 }), (items) => {
        const groups = byKind(items, (i) => i.kind);
        for (const k of [...KINDS, 'Unknown']) {
          const filtered = items.filter((i) => i.kind === k);
          expect(groups.get(k) ?? []).toEqual(filtered);
          // the same objects, not copies
          for (const [n, g] of (groups.get(k) ?? []).entries()) expect(g).toBe(filtered[n]);
        }
        expect([...groups.values()].reduce((s, g) => s + g.length, 0)).toBe(items.length);
      }),
      { numRuns: 300 },
    );
  });
});
