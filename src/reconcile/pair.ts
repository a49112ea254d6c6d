import type { Steps } from '../core/slices.js';
import type { ResourceRef } from '../model/action.js';
import { identityKey, type Manifest, manifestKey } from '../model/manifest.js';
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

/**
 * True when `key` is `manifestKey(m)` (pure), found without making the key: part by part along
 * the string. The pairing checks each desired manifest's key as its revision holds it this way;
 * making each key again to compare it (an array and a joined string per manifest, 100,000 of
 * them per plan) only to drop it was a tenth of the pairing's time and more to collect.
 */
export function isKeyOf(key: string, m: Manifest): boolean {
  const { name, project, workspace } = m.metadata;
  return matches(key, m.kind, name, project, workspace) ?? key === manifestKey(m);
}

/**
 * True when `key` is `identityKey(ref)` (pure), found as {@link isKeyOf} finds a manifest's: the
 * observation takes an inventory entry's key for its ref this way instead of making the key again.
 */
export function isRefKey(key: string, ref: ResourceRef): boolean {
  return matches(key, ref.kind, ref.name, ref.project, ref.workspace) ?? key === identityKey(ref);
}

/** Whether `key` joins these parts, undefined when a part is not a string (the join's to say). */
function matches(
  key: string,
  kind: unknown,
  name: unknown,
  project: unknown,
  workspace: unknown,
): boolean | undefined {
  // a part that is not a string is converted by the key's join: left to it
  if (
    typeof kind !== 'string' ||
    typeof name !== 'string' ||
    (project !== undefined && typeof project !== 'string') ||
    (workspace !== undefined && typeof workspace !== 'string')
  ) {
    return undefined;
  }
  let at = partEnd(key, kind, 0);
  if (at >= 0 && project !== undefined) at = partEnd(key, project, at);
  if (at >= 0 && workspace !== undefined) at = partEnd(key, workspace, at);
  return at >= 0 && key.length === at + name.length && key.startsWith(name, at);
}

/** Where the part after `part` and its `/` starts in `key` when `part` starts at `at`, else -1. */
function partEnd(key: string, part: string, at: number): number {
  const end = at + part.length;
  return key.startsWith(part, at) && key.charCodeAt(end) === SLASH ? end + 1 : -1;
}

const SLASH = 0x2f;
