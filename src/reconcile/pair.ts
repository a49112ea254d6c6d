import type { Steps } from '../core/slices.js';
import { isKeyOf } from '../model/key-of.js';
import { type Manifest, manifestKey } from '../model/manifest.js';
import type { LiveObject } from '../model/provider.js';
import type { InventoryEntry } from '../state/types.js';

/** Desired, live and last-applied state of one identity key. */
export interface Pairing {
  readonly key: string;
  readonly kind: Manifest['kind'];
  readonly desired?: Manifest;
  readonly live?: LiveObject;
  /**
   * What was last applied, for a key git no longer declares (the prune rules read it). A declared
   * key's is looked up by the planner, and only when its provider needs it: a store parses each
   * last-applied manifest when it is first asked for.
   */
  readonly lastApplied?: Manifest;
  readonly inventory?: InventoryEntry;
}

/** The pairings sorted by key, and each key's pairing (the map they were made in). */
export interface Paired {
  readonly pairings: Pairing[];
  /**
   * Key → its pairing, for the stages after the pairing that look keys up (the ordering's edges:
   * `known-manifests.ts`) instead of a map of 100,000 keys of their own. Insertion order, not
   * sorted: iterate {@link pairings} for the order.
   */
  readonly byKey: ReadonlyMap<string, Pairing>;
}

/** Pairings between two pauses of {@link pairSteps}. */
const SLICE = 512;

/**
 * Pairs desired, live and inventory by identity key (pure), with the last-applied state of the
 * keys no longer declared ({@link Pairing.lastApplied}). Every desired key appears;
 * a live or last-applied object without a desired one appears only when the inventory lists it
 * (platctl manages it): nothing else on the platform is ever looked at again. Sorted by key,
 * with the map of them by key ({@link Paired}).
 * {@link Steps} that pause every few hundred pairings (100,000 took a second in one stretch
 * before the plan's own first pause). `loadedKeys`: a desired manifest's key as its revision
 * holds it, taken instead of the one computed when the two are equal: the pairing's key is then
 * the revision's string, not a copy of it per run (each run's copies, 6 MB at 100,000, were held
 * by the plan, and by status until the next run).
 */
export function* pairSteps(
  desired: readonly Manifest[],
  live: readonly LiveObject[],
  lastApplied: ReadonlyMap<string, Manifest>,
  inventory: readonly InventoryEntry[],
  loadedKeys?: ReadonlyMap<Manifest, string>,
): Steps<Paired> {
  // one map, of the pairings: desired first, then the inventory and live objects looked up in it
  // (a map of each by key cost twice the lookups at 100,000)
  const out = new Map<string, Writable<Pairing>>();
  let n = 0;
  for (const m of desired) {
    if (++n % SLICE === 0) yield;
    const known = loadedKeys?.get(m);
    const key = known !== undefined && isKeyOf(known, m) ? known : manifestKey(m);
    out.set(key, { key, kind: m.kind, desired: m });
  }
  // each entry's pairing, in the inventory's order: the pairings' order when it is by key and
  // covers every key (a store reads its inventory sorted, and a no-op plan's keys are all in it)
  const byEntry: Writable<Pairing>[] = [];
  let ascending = true;
  let previous: string | undefined;
  for (const entry of inventory) {
    if (++n % SLICE === 0) yield;
    if (previous !== undefined && !(previous < entry.key)) ascending = false;
    previous = entry.key;
    const p = out.get(entry.key);
    // a declared key takes its last entry; a key no longer declared, its first
    if (p?.desired !== undefined) p.inventory = entry;
    if (p !== undefined) {
      byEntry.push(p);
      continue;
    }
    const q: Writable<Pairing> = { key: entry.key, kind: entry.kind, inventory: entry };
    const a = lastApplied.get(entry.key);
    if (a !== undefined) q.lastApplied = a;
    out.set(entry.key, q);
    byEntry.push(q);
  }
  for (const l of live) {
    if (++n % SLICE === 0) yield;
    const p = out.get(l.key);
    // the last live object of a key, as a map of them by key kept it
    if (p !== undefined) p.live = l;
  }
  yield;
  // strictly ascending entries as many as the keys are every key, in order: no sort of 100,000
  if (ascending && byEntry.length === out.size) return { pairings: byEntry, byKey: out };
  // the default sort orders strings by code unit, as `<` does, without calling back into JS for
  // each of 1.7 million comparisons at 100,000 keys (keys are unique: stability is moot)
  const keys = [...out.keys()].sort();
  yield;
  return { pairings: keys.map((k) => out.get(k)!), byKey: out };
}

type Writable<T> = { -readonly [K in keyof T]: T[K] };
