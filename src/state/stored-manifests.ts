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
  /** The rows as given, when their keys ascend strictly (a store's `ORDER BY key`): searched. */
  readonly #sorted: readonly (readonly [string, string])[] | undefined;
  /** Any other rows, as the `Map` they make (a repeated key: its last text, its first place). */
  readonly #text: ReadonlyMap<string, string> | undefined;
  readonly #parsed = new Map<string, Manifest>();

  /**
   * `rows`: identity key → the manifest's JSON text, in the order the map iterates. Rows whose
   * keys ascend strictly are kept as they are and searched by halves: a map of 100,000 keys, built
   * for the few a no-op plan asks for, was a tenth of a second of CPU and more to collect.
   */
  constructor(rows: Iterable<readonly [string, string]>) {
    const list = Array.isArray(rows) ? (rows as readonly (readonly [string, string])[]) : [...rows];
    let ascending = true;
    for (let i = 1; i < list.length && ascending; i++) ascending = list[i - 1]![0] < list[i]![0];
    this.#sorted = ascending ? list : undefined;
    this.#text = ascending ? undefined : new Map(list);
  }

  get size(): number {
    return this.#sorted?.length ?? this.#text!.size;
  }

  has(key: string): boolean {
    return this.#textOf(key) !== undefined;
  }

  get(key: string): Manifest | undefined {
    const known = this.#parsed.get(key);
    if (known !== undefined) return known;
    const text = this.#textOf(key);
    if (text === undefined) return undefined;
    const manifest = JSON.parse(text) as Manifest;
    this.#parsed.set(key, manifest);
    return manifest;
  }

  /** The manifests of the keys `keep` takes, still unparsed (those parsed here are reused). */
  only(keep: (key: string) => boolean): StoredManifests {
    const rows = this.#sorted ?? [...this.#text!];
    const kept = new StoredManifests(rows.filter(([key]) => keep(key)));
    for (const [key, m] of this.#parsed) if (kept.has(key)) kept.#parsed.set(key, m);
    return kept;
  }

  /** The text of `key`: by halves in sorted rows (`<` orders as the check of the constructor). */
  #textOf(key: string): string | undefined {
    const rows = this.#sorted;
    if (rows === undefined) return this.#text!.get(key);
    let lo = 0;
    let hi = rows.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const at = rows[mid]![0];
      if (at === key) return rows[mid]![1];
      if (at < key) lo = mid + 1;
      else hi = mid;
    }
    return undefined;
  }

  *keys(): MapIterator<string> {
    if (this.#sorted === undefined) return yield* this.#text!.keys();
    for (const [key] of this.#sorted) yield key;
  }

  *entries(): MapIterator<[string, Manifest]> {
    for (const key of this.keys()) yield [key, this.get(key)!];
  }

  *values(): MapIterator<Manifest> {
    for (const key of this.keys()) yield this.get(key)!;
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
