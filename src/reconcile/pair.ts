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

/**
 * Pairs desired, live and last-applied state by identity key (pure). Every desired key appears;
 * a live or last-applied object without a desired one appears only when the inventory lists it
 * (platctl manages it): nothing else on the platform is ever looked at again. Sorted by key.
 */
export function pair(
  desired: readonly Manifest[],
  live: readonly LiveObject[],
  lastApplied: ReadonlyMap<string, Manifest>,
  inventory: readonly InventoryEntry[],
): Pairing[] {
  const liveByKey = new Map(live.map((l) => [l.key, l]));
  const invByKey = new Map(inventory.map((e) => [e.key, e]));
  const out = new Map<string, Pairing>();
  for (const m of desired) {
    const key = manifestKey(m);
    out.set(key, {
      key,
      kind: m.kind,
      desired: m,
      ...opt('live', liveByKey.get(key)),
      ...opt('lastApplied', lastApplied.get(key)),
      ...opt('inventory', invByKey.get(key)),
    });
  }
  for (const entry of inventory) {
    if (out.has(entry.key)) continue;
    out.set(entry.key, {
      key: entry.key,
      kind: entry.kind,
      inventory: entry,
      ...opt('live', liveByKey.get(entry.key)),
      ...opt('lastApplied', lastApplied.get(entry.key)),
    });
  }
  return [...out.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

function opt<K extends string, V>(name: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [name]: value }) as { [P in K]?: V };
}
