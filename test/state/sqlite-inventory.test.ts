import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { InventoryEntry } from '../../src/state/index.js';
import { openStateStore } from '../../src/state/index.js';
import { binaryBefore } from '../../src/state/sqlite-inventory.js';

// The SQLite store reads its inventory as one JSON array built by SQLite (refs parsed in it), not
// a row and a parse per entry: each entry must come back as it was written, in key order.
describe('the SQLite inventory', () => {
  const odd = [
    'quote"d',
    'back\\slash',
    'ünï-ćødé',
    'emoji-😀',
    'line\u2028sep',
    'tab\there',
    '__proto__',
  ];
  const entries: InventoryEntry[] = odd.flatMap((name, i): InventoryEntry[] => [
    {
      key: `Workspace/p/${i}-${name}`,
      kind: 'Workspace',
      ref: { kind: 'Workspace', name, project: 'p' },
      createdByPlatctl: i % 2 === 0,
      protected: i % 3 === 0,
    },
    {
      key: `User/${i}-${name}@x.io`,
      kind: 'User',
      ref: { kind: 'User', name: `${name}@x.io`, id: `id-${i}` },
      id: `id-${i}`,
      createdByPlatctl: true,
      protected: false,
    },
    {
      key: `ComputeInstance/p/w/${i}`,
      kind: 'ComputeInstance',
      ref: { kind: 'ComputeInstance', name: String(i), project: 'p', workspace: 'w' },
      createdByPlatctl: false,
      protected: true,
    },
  ]);

  it('gives every entry as written, by key, refs and ids and flags alike', async () => {
    const store = openStateStore(':memory:');
    expect(await store.inventory()).toStrictEqual([]);
    for (const e of [...entries].reverse()) await store.putInventory(e);
    const read = await store.inventory();
    const byKey = [...entries].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
    expect(read.map((e) => e.key)).toEqual(byKey.map((e) => e.key));
    expect(read).toStrictEqual(byKey);
    // each entry's fields in the order the store always gave them
    expect(read.map((e) => Object.keys(e))).toEqual(byKey.map((e) => Object.keys(e)));
    await store.close();
  });

  // the read takes the rows as the key's b-tree gives them when they are in SQLite's key order:
  // UTF-8 bytes, which part from `<` where a surrogate pair meets U+E000–U+FFFF
  const units = [
    'a',
    'z',
    '/',
    '\u00e9',
    '\ud7ff',
    '\ue000',
    '\uffef',
    '\uffff',
    '\u{10000}',
    '😀',
  ];
  const text = fc.array(fc.constantFrom(...units), { maxLength: 5 }).map((a) => a.join(''));

  it("orders keys as SQLite's BINARY collation does (their UTF-8 bytes)", () => {
    fc.assert(
      fc.property(text, text, (a, b) => {
        const bytes = Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
        expect(binaryBefore(a, b)).toBe(bytes < 0);
      }),
      { numRuns: 5000 },
    );
  });

  it('reads any keys in the order the sorting query gave, in either table layout', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'platctl-inventory-'));
    try {
      await fc.assert(
        fc.asyncProperty(
          fc.uniqueArray(text, { maxLength: 12 }),
          fc.boolean(),
          async (names, rowid) => {
            const path = join(dir, `${names.length}-${Math.random()}.db`);
            if (rowid) {
              // the layout of a file made before the tables were WITHOUT ROWID
              const old = new Database(path);
              old.exec(`CREATE TABLE inventory (key TEXT PRIMARY KEY, kind TEXT NOT NULL,
              ref TEXT NOT NULL, id TEXT, created_by_platctl INTEGER NOT NULL,
              protected INTEGER NOT NULL)`);
              old.close();
            }
            const store = openStateStore(path);
            for (const name of names) {
              const ref = { kind: 'Workspace' as const, name, project: 'p' };
              await store.putInventory({
                key: `Workspace/p/${name}`,
                kind: 'Workspace',
                ref,
                createdByPlatctl: true,
                protected: false,
              });
            }
            const entries = await store.inventory();
            await store.close();
            const db = new Database(path, { readonly: true });
            const sorted = db
              .prepare('SELECT key FROM inventory ORDER BY key')
              .pluck()
              .all() as string[];
            db.close();
            expect(entries.map((e) => e.key)).toEqual(sorted);
          },
        ),
        { numRuns: 60 },
      );
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
