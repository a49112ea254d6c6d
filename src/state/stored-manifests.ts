import type { Manifest } from '../model/manifest.js';

/**
 * Last-applied manifests as a store read them: JSON text by identity key, each parsed the first
 * time it is asked for (pure: no I/O, the rows were read before). A no-op plan of 100,000
 * resources asks for few of them — a resource whose provider finds desired and live in sync needs
 * no last-applied manifest — and parsing all 100,000 was a fifth of that plan's CPU.
 *
 * A `ReadonlyMap` like the `Map` it replaces: keys in the order given, `get` gives the same object
 * each time (the planner may freeze it), iterating parses every value.
 */
export class StoredManifests implements ReadonlyMap<string, Manifest> {
  readonly #text: ReadonlyMap<string, string>;
  readonly #parsed = new Map<string, Manifest>();

  /** `rows`: identity key → the manifest's JSON text, in the order the map iterates. */
  constructor(rows: Iterable<readonly [string, string]>) {
    this.#text = new Map(rows);
  }

  get size(): number {
    return this.#text.size;
  }

  has(key: string): boolean {
    return this.#text.has(key);
  }

  get(key: string): Manifest | undefined {
    const known = this.#parsed.get(key);
    if (known !== undefined) return known;
    const text = this.#text.get(key);
    if (text === undefined) return undefined;
    const manifest = JSON.parse(text) as Manifest;
    this.#parsed.set(key, manifest);
    return manifest;
  }

  /** The manifests of the keys `keep` takes, still unparsed (those parsed here are reused). */
  only(keep: (key: string) => boolean): StoredManifests {
    const kept = new StoredManifests([...this.#text].filter(([key]) => keep(key)));
    for (const [key, m] of this.#parsed) if (kept.#text.has(key)) kept.#parsed.set(key, m);
    return kept;
  }

  keys(): MapIterator<string> {
    return this.#text.keys();
  }

  *entries(): MapIterator<[string, Manifest]> {
    for (const key of this.#text.keys()) yield [key, this.get(key)!];
  }

  *values(): MapIterator<Manifest> {
    for (const key of this.#text.keys()) yield this.get(key)!;
  }

  forEach(fn: (value: Manifest, key: string, map: ReadonlyMap<string, Manifest>) => void): void {
    for (const [key, value] of this.entries()) fn(value, key, this);
  }

  [Symbol.iterator](): MapIterator<[string, Manifest]> {
    return this.entries();
  }
}

/**
 * The entries of `map` whose key `keep` takes, in its order: a {@link StoredManifests} stays one
 * (its manifests unparsed), any other map is copied (each value read).
 */
export function onlyKeys(
  map: ReadonlyMap<string, Manifest>,
  keep: (key: string) => boolean,
): ReadonlyMap<string, Manifest> {
  if (map instanceof StoredManifests) return map.only(keep);
  return new Map([...map].filter(([key]) => keep(key)));
}
