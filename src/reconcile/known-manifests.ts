import type { Manifest } from '../model/manifest.js';
import type { LiveObject } from '../model/provider.js';
import type { Paired, Pairing } from './pair.js';

/**
 * What each pairing's key is known as, for the ordering's edges (pure): git's manifest, else the
 * one last applied, else where it lives ({@link standIn}: a resource pruned without a last-applied
 * manifest still has its workspace and project); a key known as none of them is left out.
 *
 * The `ReadonlyMap` the planner built of them, key by key in the pairings' order, without the map:
 * it looks keys up in the pairing's own map of them ({@link Paired.byKey}). At 100,000 keys that
 * map of its own was 100,000 insertions, a tenth of a second, and more to collect.
 */
export class KnownManifests implements ReadonlyMap<string, Manifest> {
  readonly #paired: Paired;
  /** The stand-ins made so far: one object per key, as the map held. */
  readonly #standIns = new Map<string, Manifest>();
  #size: number | undefined;

  constructor(paired: Paired) {
    this.#paired = paired;
  }

  get size(): number {
    if (this.#size === undefined) {
      let n = 0;
      for (const p of this.#paired.pairings) if (this.#known(p) !== undefined) n++;
      this.#size = n;
    }
    return this.#size;
  }

  has(key: string): boolean {
    return this.get(key) !== undefined;
  }

  get(key: string): Manifest | undefined {
    const p = this.#paired.byKey.get(key);
    return p === undefined ? undefined : this.#known(p);
  }

  *entries(): MapIterator<[string, Manifest]> {
    for (const p of this.#paired.pairings) {
      const known = this.#known(p);
      if (known !== undefined) yield [p.key, known];
    }
  }

  *keys(): MapIterator<string> {
    for (const [key] of this.entries()) yield key;
  }

  *values(): MapIterator<Manifest> {
    for (const [, m] of this.entries()) yield m;
  }

  /** {@link entries} without a pair per key (the ordering's edges read the map so: `eachKeyEdge`). */
  forEach(fn: (value: Manifest, key: string, map: ReadonlyMap<string, Manifest>) => void): void {
    for (const p of this.#paired.pairings) {
      const known = this.#known(p);
      if (known !== undefined) fn(known, p.key, this);
    }
  }

  [Symbol.iterator](): MapIterator<[string, Manifest]> {
    return this.entries();
  }

  #known(p: Pairing): Manifest | undefined {
    const known = p.desired ?? p.lastApplied;
    if (known !== undefined || p.live === undefined) return known;
    let made = this.#standIns.get(p.key);
    if (made === undefined) {
      made = standIn(p.live);
      this.#standIns.set(p.key, made);
    }
    return made;
  }
}

/**
 * A live object as far as its edges go: kind, name, project and workspace. The kinds the API
 * reads (users, workspaces, services, instances, clusters) take their edges from these alone.
 */
function standIn(l: LiveObject): Manifest {
  const { kind, name, project, workspace } = l.ref;
  return { kind, metadata: { name, project, workspace } } as Manifest;
}
