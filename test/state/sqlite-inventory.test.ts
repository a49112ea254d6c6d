import { describe, expect, it } from 'vitest';
import type { InventoryEntry } from '../../src/state/index.js';
import { openStateStore } from '../../src/state/index.js';

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
});
