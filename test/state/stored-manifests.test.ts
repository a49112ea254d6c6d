import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { manifestKey } from '../../src/model/manifest.js';
import { openStateStore } from '../../src/state/index.js';
import { onlyKeys, SEPARATOR, StoredManifests } from '../../src/state/stored-manifests.js';
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

// The SQLite store reads its last-applied rows as the keys and one text of their manifests: that
// must read as the rows it replaces, and be refused (undefined: the rows are read) where it cannot.
describe('StoredManifests.joined', () => {
  const char = fc.constantFrom('a', 'b', '/', SEPARATOR, '\u2028', '\ue000', '\uffff', '😀', 'é');
  const key = fc.array(char, { maxLength: 5 }).map((cs) => cs.join(''));
  const text = fc.oneof(
    { weight: 5, arbitrary: fc.jsonValue().map((v) => JSON.stringify(v)) },
    { weight: 1, arbitrary: fc.constant(`"a${SEPARATOR}b"`) },
  );
  const rowsOf = fc
    .uniqueArray(fc.tuple(key, text), { selector: ([k]) => k, maxLength: 12 })
    .map((rows) => rows.sort(([a], [b]) => (a < b ? -1 : 1)));

  it('reads as the rows, or is undefined when a text holds the separator', () => {
    fc.assert(
      fc.property(rowsOf, (rows) => {
        const keys = rows.map(([k]) => k);
        const texts = rows.map(([, t]) => t);
        const joined = StoredManifests.joined(keys, rows.length ? texts.join(SEPARATOR) : null);
        if (texts.some((t) => t.includes(SEPARATOR))) {
          expect(joined).toBeUndefined();
          return;
        }
        const stored = new StoredManifests(rows);
        expect(joined).toBeInstanceOf(StoredManifests);
        expect(joined!.size).toBe(stored.size);
        expect([...joined!.keys()]).toStrictEqual([...stored.keys()]);
        expect([...joined!]).toStrictEqual([...stored]);
        const probes = [...keys.flatMap((k) => [k, `${k}a`, k.slice(0, -1)]), '', SEPARATOR];
        for (const k of probes) {
          expect(joined!.has(k)).toBe(stored.has(k));
          expect(joined!.get(k)).toStrictEqual(stored.get(k));
        }
        const keep = (k: string) => k.length % 2 === 0;
        expect([...joined!.only(keep)]).toStrictEqual([...stored.only(keep)]);
      }),
      { numRuns: 2000 },
    );
  });

  it('is undefined for keys out of order or repeated, or texts not as many as the keys', () => {
    const t = JSON.stringify(m.workspace('p', 'a'));
    expect(StoredManifests.joined(['b', 'a'], `${t}${SEPARATOR}${t}`)).toBeUndefined();
    expect(StoredManifests.joined(['a', 'a'], `${t}${SEPARATOR}${t}`)).toBeUndefined();
    expect(StoredManifests.joined(['a', 'b'], t)).toBeUndefined();
    expect(StoredManifests.joined(['a'], `${t}${SEPARATOR}${t}`)).toBeUndefined();
    expect(StoredManifests.joined(['a'], null)).toBeUndefined();
    expect(StoredManifests.joined([], t)).toBeUndefined();
    expect(StoredManifests.joined([], null)?.size).toBe(0);
  });

  it('is what the SQLite store reads, keys SQLite orders otherwise than `<` included', async () => {
    const store = openStateStore(':memory:');
    const odd = [
      m.workspace('p', `a${SEPARATOR}`),
      m.workspace('p', '\ue000'),
      m.workspace('p', '😀'),
      m.workspace('p', 'b\u2028'),
    ];
    const written = new Map<string, unknown>();
    for (const x of [...odd.slice(0, 1), ...odd.slice(2)]) {
      await store.putLastApplied(manifestKey(x), x);
      written.set(manifestKey(x), x);
    }
    const joined = await store.lastApplied();
    expect(new Map(joined)).toStrictEqual(written);
    expect([...joined.keys()]).toStrictEqual([...written.keys()].sort());
    // U+E000 beside a surrogate pair: SQLite's order is not `<`'s, and the rows are read instead
    await store.putLastApplied(manifestKey(odd[1]!), odd[1]!);
    written.set(manifestKey(odd[1]!), odd[1]);
    const read = await store.lastApplied();
    expect(new Map(read)).toStrictEqual(written);
    await store.close();
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
