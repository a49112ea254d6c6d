/**
 * The emulator's state: named collections of JSON documents, each keyed by a string.
 *
 * Domain modules choose their own collection names and keys (for example collection
 * `computeinstances`, key `<project>/<workspace>/<name>`). The store knows nothing of the domain,
 * so the in-memory and SQLite implementations stay small and interchangeable. Values are stored
 * and returned as deep copies: mutating a returned object never changes the store.
 */
export interface EmulatorStore {
  get<T>(collection: string, key: string): T | undefined;
  put<T>(collection: string, key: string, value: T): void;
  /** Returns true when something was deleted. */
  delete(collection: string, key: string): boolean;
  /** Every value of a collection whose key starts with `prefix` (all when omitted), in key order. */
  list<T>(collection: string, prefix?: string): T[];
  /** Runs `fn` atomically: either every write inside it is kept or none is. */
  transaction<R>(fn: () => R): R;
  /** Removes everything (used by POST /_emulator/reset before re-seeding). */
  clear(): void;
  close(): void;
}
