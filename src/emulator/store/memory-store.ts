import type { EmulatorStore } from './types.js';

/** An {@link EmulatorStore} held in memory; values are kept as JSON text so copies are deep. */
export class MemoryStore implements EmulatorStore {
  #data = new Map<string, Map<string, string>>();

  get<T>(collection: string, key: string): T | undefined {
    const text = this.#data.get(collection)?.get(key);
    return text === undefined ? undefined : (JSON.parse(text) as T);
  }

  put<T>(collection: string, key: string, value: T): void {
    let coll = this.#data.get(collection);
    if (!coll) {
      coll = new Map();
      this.#data.set(collection, coll);
    }
    coll.set(key, JSON.stringify(value));
  }

  delete(collection: string, key: string): boolean {
    return this.#data.get(collection)?.delete(key) ?? false;
  }

  list<T>(collection: string, prefix = ''): T[] {
    const coll = this.#data.get(collection);
    if (!coll) return [];
    return [...coll.keys()]
      .filter((k) => k.startsWith(prefix))
      .sort()
      .map((k) => JSON.parse(coll.get(k)!) as T);
  }

  transaction<R>(fn: () => R): R {
    // Snapshot the maps; on a throw, restore them so no write inside fn survives.
    const snapshot = new Map([...this.#data].map(([c, m]) => [c, new Map(m)]));
    try {
      return fn();
    } catch (err) {
      this.#data = snapshot;
      throw err;
    }
  }

  clear(): void {
    this.#data.clear();
  }

  close(): void {}
}
