import Database from 'better-sqlite3';
import type { EmulatorStore } from './types.js';

/**
 * An {@link EmulatorStore} in one SQLite file (table `docs(collection, key, json)`, WAL), so a
 * restarted emulator keeps everything. The only module that imports better-sqlite3.
 */
export class SqliteStore implements EmulatorStore {
  readonly #db: Database.Database;
  readonly #get: Database.Statement<[string, string], { json: string }>;
  readonly #put: Database.Statement<[string, string, string]>;
  readonly #del: Database.Statement<[string, string]>;
  readonly #list: Database.Statement<[{ c: string; p: string }], { json: string }>;

  constructor(file: string) {
    this.#db = new Database(file);
    this.#db.pragma('journal_mode = WAL');
    this.#db.exec(
      'CREATE TABLE IF NOT EXISTS docs (collection TEXT NOT NULL, key TEXT NOT NULL, json TEXT NOT NULL, PRIMARY KEY (collection, key))',
    );
    this.#get = this.#db.prepare('SELECT json FROM docs WHERE collection = ? AND key = ?');
    this.#put = this.#db.prepare(
      'INSERT INTO docs (collection, key, json) VALUES (?, ?, ?) ON CONFLICT(collection, key) DO UPDATE SET json = excluded.json',
    );
    this.#del = this.#db.prepare('DELETE FROM docs WHERE collection = ? AND key = ?');
    // substr comparison rather than LIKE so `%` and `_` in keys are literal.
    this.#list = this.#db.prepare(
      'SELECT json FROM docs WHERE collection = @c AND substr(key, 1, length(@p)) = @p ORDER BY key',
    );
  }

  get<T>(collection: string, key: string): T | undefined {
    const row = this.#get.get(collection, key);
    return row ? (JSON.parse(row.json) as T) : undefined;
  }

  put<T>(collection: string, key: string, value: T): void {
    this.#put.run(collection, key, JSON.stringify(value));
  }

  delete(collection: string, key: string): boolean {
    return this.#del.run(collection, key).changes > 0;
  }

  list<T>(collection: string, prefix = ''): T[] {
    return this.#list.all({ c: collection, p: prefix }).map((r) => JSON.parse(r.json) as T);
  }

  sorted<T>(collection: string, prefix: string, compare: (a: T, b: T) => number): readonly T[] {
    // Rows come in key order, and sort() is stable, so ties stay in key order as in memory.
    return this.list<T>(collection, prefix).sort(compare);
  }

  transaction<R>(fn: () => R): R {
    if (this.#db.inTransaction) return fn();
    return this.#db.transaction(fn)();
  }

  clear(): void {
    this.#db.exec('DELETE FROM docs');
  }

  close(): void {
    this.#db.close();
  }
}
