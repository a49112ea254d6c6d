import { SortedKeys } from './sorted-keys.js';
import type { EmulatorStore } from './types.js';

/** A stored value: its JSON (what `get` copies from) and, parsed and deeply frozen, for lists. */
interface Entry {
  readonly key: string;
  readonly text: string;
  readonly value: unknown;
}

/** One collection: entries by key, its keys in order, and the orders callers have asked for. */
interface Collection {
  readonly values: Map<string, Entry>;
  readonly keys: SortedKeys<string>;
  /** Keys under a prefix sorted by a caller's comparator (see {@link MemoryStore.sorted}). */
  readonly orders: Map<string, Order>;
  /** The comparator each entry of `orders` was built with, so a new one rebuilds. */
  readonly comparators: Map<string, unknown>;
}

/** The entries under one prefix in a caller's order, and (until the next write) their values. */
interface Order {
  readonly prefix: string;
  readonly entries: SortedKeys<Entry>;
  values: readonly unknown[] | undefined;
}

/** What a write replaced, so a failed transaction can put it back. */
interface Undo {
  readonly collection: string;
  readonly key: string;
  readonly previous: Entry | undefined;
}

/**
 * An {@link EmulatorStore} held in memory. Values are kept as JSON text, which `get` parses into a
 * copy of the caller's own, and parsed once and deeply frozen, which lists hand out without
 * parsing (read-only, so no caller can change the store through them). Keys are kept sorted as they are written,
 * so a prefix list costs its result, not the collection; a failed transaction is undone from a log
 * of what its writes replaced rather than from a copy of everything.
 */
export class MemoryStore implements EmulatorStore {
  #data = new Map<string, Collection>();
  #undo: Undo[] | undefined;

  get<T>(collection: string, key: string): T | undefined {
    const entry = this.#data.get(collection)?.values.get(key);
    return entry === undefined ? undefined : (JSON.parse(entry.text) as T);
  }

  put<T>(collection: string, key: string, value: T): void {
    const text = JSON.stringify(value);
    this.#write(collection, key, { key, text, value: deepFreeze(JSON.parse(text)) });
  }

  delete(collection: string, key: string): boolean {
    const coll = this.#data.get(collection);
    if (!coll?.values.has(key)) return false;
    this.#write(collection, key, undefined);
    return true;
  }

  list<T>(collection: string, prefix = ''): T[] {
    const coll = this.#data.get(collection);
    if (!coll) return [];
    return coll.keys.withPrefix(prefix).map((k) => coll.values.get(k)!.value as T);
  }

  sorted<T>(collection: string, prefix: string, compare: (a: T, b: T) => number): readonly T[] {
    const coll = this.#data.get(collection);
    if (!coll) return [];
    let order = coll.orders.get(prefix);
    if (!order || coll.comparators.get(prefix) !== compare) {
      const byValue = (a: Entry, b: Entry) =>
        compare(a.value as T, b.value as T) || compareStrings(a.key, b.key);
      const entries = coll.keys.withPrefix(prefix).map((k) => coll.values.get(k)!);
      order = { prefix, entries: new SortedKeys(byValue, entries), values: undefined };
      coll.orders.set(prefix, order);
      coll.comparators.set(prefix, compare);
    }
    order.values ??= order.entries.all().map((e) => e.value);
    return order.values as readonly T[];
  }

  transaction<R>(fn: () => R): R {
    if (this.#undo) return fn(); // nested: the outermost transaction undoes everything
    const log: Undo[] = [];
    this.#undo = log;
    try {
      const result = fn();
      this.#undo = undefined;
      return result;
    } catch (err) {
      this.#undo = undefined;
      for (let i = log.length - 1; i >= 0; i--) {
        const u = log[i]!;
        this.#write(u.collection, u.key, u.previous);
      }
      throw err;
    }
  }

  clear(): void {
    this.#data.clear();
  }

  close(): void {}

  /** Sets (or, for `undefined`, removes) one value and keeps every index of its collection. */
  #write(collection: string, key: string, value: Entry | undefined): void {
    let coll = this.#data.get(collection);
    if (!coll) {
      coll = {
        values: new Map(),
        keys: new SortedKeys(compareStrings),
        orders: new Map(),
        comparators: new Map(),
      };
      this.#data.set(collection, coll);
    }
    const previous = coll.values.get(key);
    this.#undo?.push({ collection, key, previous });
    if (previous !== undefined) {
      coll.keys.remove(key);
      for (const o of coll.orders.values()) {
        if (key.startsWith(o.prefix)) {
          o.entries.remove(previous);
          o.values = undefined;
        }
      }
      coll.values.delete(key);
    }
    if (value === undefined) return;
    coll.values.set(key, value);
    coll.keys.insert(key);
    for (const o of coll.orders.values()) {
      if (key.startsWith(o.prefix)) {
        o.entries.insert(value);
        o.values = undefined;
      }
    }
  }
}

function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0;
}

function deepFreeze<T>(value: T): T {
  if (typeof value === 'object' && value !== null) {
    for (const v of Object.values(value)) deepFreeze(v);
    Object.freeze(value);
  }
  return value;
}
