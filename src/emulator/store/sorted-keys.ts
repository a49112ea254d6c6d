/**
 * Keys kept sorted by `compare` as they are inserted and removed (binary search; the array move
 * an insert or remove costs is a memmove, far cheaper than re-sorting or re-parsing). Equal keys
 * under `compare` must not occur: callers break ties with the key itself.
 */
export class SortedKeys<K> {
  readonly #compare: (a: K, b: K) => number;
  #keys: K[];

  constructor(compare: (a: K, b: K) => number, initial: readonly K[] = []) {
    this.#compare = compare;
    this.#keys = [...initial].sort(compare);
  }

  /** Adds `key`; a key already present is left as it is. */
  insert(key: K): void {
    const i = this.#search(key);
    if (i < this.#keys.length && this.#compare(this.#keys[i]!, key) === 0) return;
    this.#keys.splice(i, 0, key);
  }

  /** Removes `key` when present. Its sort fields must still read as when it was inserted. */
  remove(key: K): void {
    const i = this.#search(key);
    if (i < this.#keys.length && this.#compare(this.#keys[i]!, key) === 0) this.#keys.splice(i, 1);
  }

  /** Every key in order (the kept array itself: callers must not change it). */
  all(): readonly K[] {
    return this.#keys;
  }

  /** The keys that start with `prefix`, in order (string keys sorted by code unit only). */
  withPrefix(this: SortedKeys<string>, prefix: string): string[] {
    if (prefix === '') return [...this.#keys];
    const out: string[] = [];
    for (let i = this.#search(prefix); i < this.#keys.length; i++) {
      const k = this.#keys[i]!;
      if (!k.startsWith(prefix)) break;
      out.push(k);
    }
    return out;
  }

  /** The first index whose key is not below `key`. */
  #search(key: K): number {
    let lo = 0;
    let hi = this.#keys.length;
    while (lo < hi) {
      const mid = (lo + hi) >>> 1;
      if (this.#compare(this.#keys[mid]!, key) < 0) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }
}
