import { afterEach, describe, expect, it, vi } from 'vitest';
import { manifestKey } from '../../src/model/manifest.js';
import { openStateStore } from '../../src/state/index.js';
import { onlyKeys, StoredManifests } from '../../src/state/stored-manifests.js';
import { m } from '../reconcile/manifests.js';

// The SQLite store gives its last-applied manifests as JSON text parsed on demand: it must read as
// the Map of parsed rows it replaced, and parse only what is asked for.
describe('StoredManifests', () => {
  afterEach(() => vi.restoreAllMocks());
  const manifests = [m.workspace('p', 'b'), m.workspace('p', 'a'), m.instance('p', 'a', 'i')];
  const rows = manifests.map((x) => [manifestKey(x), JSON.stringify(x)] as [string, string]);

  it('reads as the Map of the parsed rows, in the rows’ order', () => {
    const stored = new StoredManifests(rows);
    const parsed = new Map(rows.map(([k, t]) => [k, JSON.parse(t)]));
    expect(stored.size).toBe(3);
    expect([...stored.keys()]).toEqual([...parsed.keys()]);
    expect([...stored]).toStrictEqual([...parsed]);
    expect([...stored.entries()]).toStrictEqual([...parsed.entries()]);
    expect([...stored.values()]).toStrictEqual([...parsed.values()]);
    const seen: [string, unknown][] = [];
    stored.forEach((v, k, map) => {
      expect(map).toBe(stored);
      seen.push([k, v]);
    });
    expect(seen).toStrictEqual([...parsed]);
    expect(stored.has('Workspace/p/a')).toBe(true);
    expect(stored.has('Workspace/p/zz')).toBe(false);
    expect(stored.get('Workspace/p/zz')).toBeUndefined();
    expect(new Map(stored)).toStrictEqual(parsed);
  });

  it('parses a manifest once, when first asked for, and gives the same object after', () => {
    const parse = vi.spyOn(JSON, 'parse');
    const stored = new StoredManifests(rows);
    [...stored.keys()];
    stored.has('Workspace/p/a');
    expect(parse).not.toHaveBeenCalled();
    const a = stored.get('Workspace/p/a');
    expect(a).toStrictEqual(m.workspace('p', 'a'));
    expect(stored.get('Workspace/p/a')).toBe(a);
    expect([...stored.values()][1]).toBe(a);
    expect(parse).toHaveBeenCalledTimes(3);
  });

  it('is what the SQLite store gives for its last-applied manifests', async () => {
    const store = openStateStore(':memory:');
    for (const x of manifests) await store.putLastApplied(manifestKey(x), x);
    const applied = await store.lastApplied();
    expect(applied).toBeInstanceOf(StoredManifests);
    expect([...applied.keys()]).toEqual([...rows.map(([k]) => k)].sort());
    expect(applied.get('ComputeInstance/p/a/i')).toStrictEqual(m.instance('p', 'a', 'i'));
    await store.close();
  });
});

// Rows whose keys ascend (a store's ORDER BY key) are searched by halves instead of put in a map:
// every key of the rows, and every key between, before and after them, reads as the Map would.
describe('StoredManifests, rows in key order', () => {
  const names = Array.from({ length: 257 }, (_, i) => `ws-${i * 7}`).sort();
  const sorted = names.map(
    (n) => [`Workspace/p/${n}`, JSON.stringify(m.workspace('p', n))] as [string, string],
  );
  const probes = [
    ...sorted.map(([k]) => k),
    ...sorted.map(([k]) => `${k}-`),
    ...sorted.map(([k]) => k.slice(0, -1)),
    '',
    'A',
    'Workspace/p/',
    'Workspace/p/ws-9999',
    'Zzz',
    '\u{1F600}',
  ];

  it('finds each key, and no other, as the Map of the rows does', () => {
    const stored = new StoredManifests(sorted);
    const parsed = new Map(sorted.map(([k, t]) => [k, JSON.parse(t)]));
    for (const key of probes) {
      expect(stored.has(key)).toBe(parsed.has(key));
      expect(stored.get(key)).toStrictEqual(parsed.get(key));
    }
    expect(stored.size).toBe(parsed.size);
    expect([...stored]).toStrictEqual([...parsed]);
    const kept = stored.only((k) => k.endsWith('1'));
    expect([...kept]).toStrictEqual([...parsed].filter(([k]) => k.endsWith('1')));
    for (const key of probes) expect(kept.has(key)).toBe(key.endsWith('1') && parsed.has(key));
  });

  it('takes rows out of order, or a key twice, as a Map does (last text, first place)', () => {
    const [a, b, c] = sorted as [[string, string], [string, string], [string, string]];
    const cases: [string, string][][] = [
      [b, a, c],
      [a, b, [a[0], c[1]]],
      [a, a],
    ];
    for (const rows of cases) {
      const stored = new StoredManifests(rows);
      const parsed = new Map(rows.map(([k, t]) => [k, JSON.parse(t)]));
      expect(stored.size).toBe(parsed.size);
      expect([...stored]).toStrictEqual([...parsed]);
      for (const key of probes) expect(stored.get(key)).toStrictEqual(parsed.get(key));
    }
  });
});

// A shard's view of the store keeps the keys of its shard: still unparsed, the same manifests.
describe('onlyKeys', () => {
  afterEach(() => vi.restoreAllMocks());
  const manifests = [m.workspace('p', 'b'), m.workspace('q', 'a'), m.workspace('p', 'c')];
  const rows = manifests.map((x) => [manifestKey(x), JSON.stringify(x)] as [string, string]);
  const keep = (key: string) => key.startsWith('Workspace/p/');

  it('is the filtered Map of the parsed rows, and parses nothing', () => {
    const stored = new StoredManifests(rows);
    const first = stored.get('Workspace/p/b');
    const parse = vi.spyOn(JSON, 'parse');
    const kept = onlyKeys(stored, keep);
    expect(parse).not.toHaveBeenCalled();
    expect(kept).toBeInstanceOf(StoredManifests);
    expect(kept.get('Workspace/p/b')).toBe(first);
    const parsed = new Map(rows.map(([k, t]) => [k, JSON.parse(t)]));
    expect([...kept]).toStrictEqual([...parsed].filter(([k]) => keep(k)));
  });

  it('filters any other map as a copy', () => {
    const plain = new Map(manifests.map((x) => [manifestKey(x), x]));
    expect([...onlyKeys(plain, keep)]).toEqual([...plain].filter(([k]) => keep(k)));
  });
});
