import type { Steps } from '../core/slices.js';
import { type Manifest, manifestKey } from '../model/manifest.js';
import type { LiveObject } from '../model/provider.js';
import type { InventoryEntry } from '../state/types.js';

/** Desired, live and last-applied state of one identity key. */
export interface Pairing {
  readonly key: string;
  readonly kind: Manifest['kind'];
  readonly desired?: Manifest;
  readonly live?: LiveObject;
  readonly lastApplied?: Manifest;
  readonly inventory?: InventoryEntry;
}

/** Pairings between two pauses of {@link pairSteps}. */
const SLICE = 512;

/**
 * Pairs desired, live and last-applied state by identity key (pure). Every desired key appears;
 * a live or last-applied object without a desired one appears only when the inventory lists it
 * (platctl manages it): nothing else on the platform is ever looked at again. Sorted by key.
 * {@link Steps} that pause every few hundred pairings (100,000 took a second in one stretch
 * before the plan's own first pause).
 */
export function* pairSteps(
  desired: readonly Manifest[],
  live: readonly LiveObject[],
  lastApplied: ReadonlyMap<string, Manifest>,
  inventory: readonly InventoryEntry[],
): Steps<Pairing[]> {
  const liveByKey = new Map(live.map((l) => [l.key, l]));
  yield;
  const invByKey = new Map(inventory.map((e) => [e.key, e]));
  yield;
  const out = new Map<string, Pairing>();
  let n = 0;
  for (const m of desired) {
    if (++n % SLICE === 0) yield;
    const key = manifestKey(m);
    const p: Writable<Pairing> = { key, kind: m.kind, desired: m };
    const l = liveByKey.get(key);
    if (l !== undefined) p.live = l;
    const a = lastApplied.get(key);
    if (a !== undefined) p.lastApplied = a;
    const e = invByKey.get(key);
    if (e !== undefined) p.inventory = e;
    out.set(key, p);
  }
  for (const entry of inventory) {
    if (++n % SLICE === 0) yield;
    if (out.has(entry.key)) continue;
    const p: Writable<Pairing> = { key: entry.key, kind: entry.kind, inventory: entry };
    const l = liveByKey.get(entry.key);
    if (l !== undefined) p.live = l;
    const a = lastApplied.get(entry.key);
    if (a !== undefined) p.lastApplied = a;
    out.set(entry.key, p);
  }
  yield;
  // the default sort orders strings by code unit, as `<` does, without calling back into JS for
  // each of 1.7 million comparisons at 100,000 keys (keys are unique: stability is moot)
  const keys = [...out.keys()].sort();
  yield;
  return keys.map((k) => out.get(k)!);
}

type Writable<T> = { -readonly [K in keyof T]: T[K] };
