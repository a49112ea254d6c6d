import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { openState } from '../../src/state/index.js';
import { StoredManifests } from '../../src/state/stored-manifests.js';
import type { StateStore } from '../../src/state/types.js';
import { postgresUrl, type TestSchema, testSchema } from '../helpers/postgres.js';

// The PostgreSQL store gives its last-applied manifests as the stored JSON text, parsed when first
// asked for (the driver parsed every row). What a manifest reads as must be what the driver gave.

/** Stored texts as JSON may hold them: spacing, escapes, numbers, a repeated key, nesting. */
const TEXTS: [string, string][] = [
  ['Workspace/p/a', '{"kind":"Workspace","metadata":{"name":"a","project":"p"}}'],
  ['Workspace/p/b', ' { "kind" : "Workspace", "spec": {"n": 1e21, "z": -0, "f": 1.50} } '],
  ['User/é', '{"kind":"User","metadata":{"name":"\\u00e9\\n\\"q\\""},"x":[1,[2,{"y":null}]]}'],
  ['Workspace/p/dup', '{"kind":"Workspace","a":1,"a":2}'],
  ['Workspace/P/upper', '{"kind":"Workspace","big":12345678901234567890}'],
];

describe.skipIf(!postgresUrl)('PostgreSQL last-applied manifests', () => {
  let schema: TestSchema;
  let store: StateStore;
  beforeAll(async () => {
    schema = await testSchema('lastapplied');
    store = await openState(schema.url);
    for (const [key, text] of TEXTS) {
      await schema.query(
        `INSERT INTO "${schema.name}".last_applied (key, manifest) VALUES ($1, $2::json)`,
        [key, text],
      );
    }
  });
  afterAll(async () => {
    await store.close();
    await schema.drop();
  });
  afterEach(() => vi.restoreAllMocks());

  it('reads as the Map of the rows the driver parsed, keys in the same order', async () => {
    const { rows } = await schema.query(
      `SELECT key, manifest FROM "${schema.name}".last_applied ORDER BY key COLLATE "C"`,
    );
    const driver = new Map(rows.map((r) => [r.key as string, r.manifest as unknown]));
    const applied = await store.lastApplied();
    expect(applied).toBeInstanceOf(StoredManifests);
    expect([...applied.keys()]).toEqual([...driver.keys()]);
    expect([...applied]).toStrictEqual([...driver]);
    expect(
      Object.is((applied.get('Workspace/p/b') as never as { spec: { z: number } }).spec.z, -0),
    ).toBe(true);
  });

  it('parses nothing until a manifest is asked for', async () => {
    const applied = await store.lastApplied();
    const parse = vi.spyOn(JSON, 'parse');
    expect(applied.size).toBe(TEXTS.length);
    expect(applied.has('Workspace/p/a')).toBe(true);
    expect(parse).not.toHaveBeenCalled();
    expect(applied.get('Workspace/p/a')).toStrictEqual({
      kind: 'Workspace',
      metadata: { name: 'a', project: 'p' },
    });
    expect(parse).toHaveBeenCalledTimes(1);
  });
});
