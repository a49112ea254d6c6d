/**
 * The emulator's state: named collections of JSON documents, each keyed by a string.
 *
 * Domain modules choose their own collection names and keys (for example collection
 * `computeinstances`, key `<project>/<workspace>/<name>`). The store knows nothing of the domain,
 * so the in-memory and SQLite implementations stay small and interchangeable. Values are copied
 * on the way in. `get` returns a deep copy the caller may change; what `list` and `sorted` return
 * is read-only (the in-memory store hands out the deeply frozen values it keeps parsed, so a list
 * costs no parsing): copy such a value before changing it.
 */
export interface EmulatorStore {
  get<T>(collection: string, key: string): T | undefined;
  put<T>(collection: string, key: string, value: T): void;
  /** Returns true when something was deleted. */
  delete(collection: string, key: string): boolean;
  /** Every value of a collection whose key starts with `prefix` (all when omitted), in key order. */
  list<T>(collection: string, prefix?: string): T[];
  /**
   * Every value of `collection` whose key starts with `prefix`, sorted by `compare` (ties by key).
   * Pass the same `compare` function for a collection each time: the in-memory store keeps the
   * order per prefix and maintains it on every write, so a call costs its result, not a sort.
   */
  sorted<T>(collection: string, prefix: string, compare: (a: T, b: T) => number): readonly T[];
  /** Runs `fn` atomically: either every write inside it is kept or none is. */
  transaction<R>(fn: () => R): R;
  /** Removes everything (used by POST /_emulator/reset before re-seeding). */
  clear(): void;
  close(): void;
}
