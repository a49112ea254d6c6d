import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { runSteps } from '../../src/core/slices.js';
import { type Manifest, manifestKey } from '../../src/model/manifest.js';
import type { LiveObject } from '../../src/model/provider.js';
import { pairSteps } from '../../src/reconcile/pair.js';
import type { InventoryEntry } from '../../src/state/types.js';
import { m } from './manifests.js';

// The pairing takes its inventory's order for the pairings' when the entries come strictly by key
// and cover every key (as a store reads them for a no-op plan), instead of sorting the keys of its
// map: the pairings must be what that sort gave, whatever the inventory's order and coverage.

/** Names whose keys sort apart from their order here (code units: `Z` < `a` < `é` < `😀`). */
const names = ['a', 'b', 'Z', 'a-1', 'a/b', 'é', '😀', '\uffff', '10', '9'];
const workspace = (name: string) => m.workspace('p', name);
const entryOf = (x: Manifest): InventoryEntry => ({
  key: manifestKey(x),
  kind: x.kind,
  ref: { kind: x.kind, name: x.metadata.name, project: 'p' },
  createdByPlatctl: true,
  protected: false,
});
const liveOf = (x: Manifest): LiveObject =>
  ({ key: manifestKey(x), ref: entryOf(x).ref, body: {} }) as LiveObject;

describe('the pairing’s order', () => {
  it('is the sorted keys of its map, for inventories in any order, repeated or partial', () => {
    const picks = fc.subarray(names);
    fc.assert(
      fc.property(
        picks,
        fc.array(fc.constantFrom(...names), { maxLength: 12 }),
        picks,
        fc.constantFrom('sorted', 'as drawn', 'reversed'),
        (declared, inventoried, alive, how) => {
          const desired = declared.map(workspace);
          let entries = inventoried.map((n) => entryOf(workspace(n)));
          if (how !== 'as drawn') {
            entries = [...entries].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
            if (how === 'reversed') entries.reverse();
          }
          const live = alive.map((n) => liveOf(workspace(n)));
          const paired = runSteps(pairSteps(desired, live, new Map(), entries));
          const sorted = [...paired.byKey.keys()].sort().map((k) => paired.byKey.get(k));
          expect(paired.pairings).toStrictEqual(sorted);
          for (const [i, p] of paired.pairings.entries()) expect(p).toBe(sorted[i]);
        },
      ),
      { numRuns: 3000 },
    );
  });
});
