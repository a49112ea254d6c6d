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
  /** The rows, when their keys ascend strictly (a store's `ORDER BY key`): searched by halves. */
  readonly #sorted: SortedRows | undefined;
  /** Any other rows, as the `Map` they make (a repeated key: its last text, its first place). */
  readonly #text: ReadonlyMap<string, string> | undefined;
  readonly #parsed = new Map<string, Manifest>();

  /**
   * `rows`: identity key → the manifest's JSON text, in the order the map iterates. Rows whose
   * keys ascend strictly are kept as they are and searched by halves: a map of 100,000 keys, built
   * for the few a no-op plan asks for, was a tenth of a second of CPU and more to collect.
   */
  constructor(rows: Iterable<readonly [string, string]>);
  constructor(rows: SortedRows);
  constructor(rows: Iterable<readonly [string, string]> | SortedRows) {
    if (rows instanceof SortedRows) {
      this.#sorted = rows;
      this.#text = undefined;
      return;
    }
    const list = Array.isArray(rows) ? (rows as readonly (readonly [string, string])[]) : [...rows];
    let ascending = true;
    for (let i = 1; i < list.length && ascending; i++) ascending = list[i - 1]![0] < list[i]![0];
    this.#sorted = ascending
      ? new SortedRows(
          list.length,
          (i) => list[i]![0],
          (i) => list[i]![1],
        )
      : undefined;
    this.#text = ascending ? undefined : new Map(list);
  }

  /**
   * The manifests of `keys` (each key once, ascending, as `<` orders) whose JSON texts are
   * `joined`, in the same order, each followed by {@link SEPARATOR} but the last (a store's
   * `group_concat`): one string instead of a string and a row per key. At 100,000 the rows and
   * their texts (≈ 30 MB) were copied by every young-generation collection they lived through;
   * one large string is not. Undefined when the keys do not ascend or the texts are not as many as
   * the keys (a text holding the separator): the caller reads rows instead. Pure.
   */
  static joined(keys: readonly string[], joined: string | null): StoredManifests | undefined {
    for (let i = 1; i < keys.length; i++) if (!(keys[i - 1]! < keys[i]!)) return undefined;
    if (keys.length === 0) return joined === null ? new StoredManifests([]) : undefined;
    if (joined === null) return undefined;
    // where each text starts, and one past the end of the last as if a separator followed it
    const starts = new Int32Array(keys.length + 1);
    let at = 0;
    for (let i = 1; i < keys.length; i++) {
      at = joined.indexOf(SEPARATOR, at) + 1;
      if (at === 0) return undefined;
      starts[i] = at;
    }
    if (joined.indexOf(SEPARATOR, at) !== -1) return undefined;
    starts[keys.length] = joined.length + 1;
    const rows = new SortedRows(
      keys.length,
      (i) => keys[i]!,
      (i) => joined.slice(starts[i]!, starts[i + 1]! - 1),
    );
    return new StoredManifests(rows);
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
    const kept = new StoredManifests(this.#rows().filter(([key]) => keep(key)));
    for (const [key, m] of this.#parsed) if (kept.has(key)) kept.#parsed.set(key, m);
    return kept;
  }

  /** The rows, in their order. */
  #rows(): (readonly [string, string])[] {
    const sorted = this.#sorted;
    if (sorted === undefined) return [...this.#text!];
    return Array.from({ length: sorted.length }, (_, i) => [sorted.keyAt(i), sorted.textAt(i)]);
  }

  /** The text of `key`: by halves in sorted rows (`<` orders as the check of the constructor). */
  #textOf(key: string): string | undefined {
    const rows = this.#sorted;
    if (rows === undefined) return this.#text!.get(key);
    let lo = 0;
    let hi = rows.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      const at = rows.keyAt(mid);
      if (at === key) return rows.textAt(mid);
      if (at < key) lo = mid + 1;
      else hi = mid;
    }
    return undefined;
  }

  *keys(): MapIterator<string> {
    const sorted = this.#sorted;
    if (sorted === undefined) return yield* this.#text!.keys();
    for (let i = 0; i < sorted.length; i++) yield sorted.keyAt(i);
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

/** What separates the texts of {@link StoredManifests.joined}: JSON text holds none unescaped. */
export const SEPARATOR = '\x1e';

/** Rows whose keys ascend strictly, read by place. */
class SortedRows {
  constructor(
    readonly length: number,
    readonly keyAt: (i: number) => string,
    readonly textAt: (i: number) => string,
  ) {}
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
