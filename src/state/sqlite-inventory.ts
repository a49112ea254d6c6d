import type Database from 'better-sqlite3';
import type { InventoryEntry } from './types.js';

/** An inventory row as the store reads it: an array, not an object per row (100,000 of them). */
type InventoryRow = [
  key: string,
  kind: string,
  ref: InventoryEntry['ref'],
  id: string | null,
  createdByPlatctl: number,
  isProtected: number,
];

/** One row as JSON, its ref parsed in it. */
const ROW = 'json_array(key, kind, json(ref), id, created_by_platctl, protected)';

/**
 * The SQLite store's inventory read (I/O, synchronous): every entry, in key order. Every row comes
 * in one JSON array built by SQLite, refs parsed in it: one `JSON.parse` instead of one per row
 * (the rows of 100,000 as arrays, then a parse of each ref, took half as long again). The array is
 * built from the rows as the key's b-tree gives them, and taken when they did come in key order
 * (checked here): the aggregate's own `ORDER BY` sorted all 100,000 again in a temporary b-tree, a
 * third of the read. Rows out of order (a driver, a layout that scans otherwise) are read again,
 * sorted by that `ORDER BY`.
 */
export function sqliteInventory(db: Database.Database): () => InventoryEntry[] {
  const scanned = db
    .prepare(`SELECT json_group_array(${ROW}) FROM (SELECT * FROM inventory ORDER BY key)`)
    .pluck();
  const sorted = db.prepare(`SELECT json_group_array(${ROW} ORDER BY key) FROM inventory`).pluck();
  return () => {
    let rows = JSON.parse(scanned.get() as string) as InventoryRow[];
    if (!inKeyOrder(rows)) rows = JSON.parse(sorted.get() as string) as InventoryRow[];
    return rows.map(([key, k, ref, id, created, prot]) => {
      const kind = k as InventoryEntry['kind'];
      const createdByPlatctl = created === 1;
      return id === null
        ? { key, kind, ref, createdByPlatctl, protected: prot === 1 }
        : { key, kind, ref, id, createdByPlatctl, protected: prot === 1 };
    });
  };
}

/** True when each row's key sorts strictly after the one before, as SQLite's BINARY collation. */
function inKeyOrder(rows: readonly InventoryRow[]): boolean {
  for (let i = 1; i < rows.length; i++) {
    if (!binaryBefore(rows[i - 1]![0], rows[i]![0])) return false;
  }
  return true;
}

/**
 * U+E000–U+FFFF: code-unit order and UTF-8's part only where such a unit meets a surrogate, so a
 * pair of strings without one compares as `<` does (surrogates among themselves included).
 */
const HIGH = /[\ue000-\uffff]/;

/**
 * True when `a` sorts strictly before `b` by their UTF-8 bytes (SQLite's BINARY collation; pure).
 * That is `<`, the order of UTF-16 code units, but where the first unit that differs is a
 * surrogate on one side and U+E000–U+FFFF on the other: UTF-8 puts the surrogate pair's code point
 * (U+10000 and above) after it.
 */
export function binaryBefore(a: string, b: string): boolean {
  if (!HIGH.test(a) && !HIGH.test(b)) return a < b;
  const n = Math.min(a.length, b.length);
  for (let i = 0; i < n; i++) {
    const x = a.charCodeAt(i);
    const y = b.charCodeAt(i);
    if (x !== y) return utf8Rank(x) < utf8Rank(y);
  }
  return a.length < b.length;
}

/** A code unit's place in UTF-8 order: surrogates (U+D800–U+DFFF) after U+E000–U+FFFF. */
function utf8Rank(unit: number): number {
  if (unit < 0xd800) return unit;
  return unit < 0xe000 ? unit + 0x2000 : unit - 0x800;
}
