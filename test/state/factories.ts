import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach } from 'vitest';
import type { Clock } from '../../src/core/clock.js';
import { openState } from '../../src/state/index.js';
import type { StateStore } from '../../src/state/types.js';
import { postgresUrl, type TestSchema, testSchema } from '../helpers/postgres.js';

/** One empty place to keep state; every store opened on it sees the same state. */
export interface StorePlace {
  /** Where it is, as `--state` takes it. */
  readonly target: string;
  open(options?: { clock?: Clock }): Promise<StateStore>;
  /** Closes what was opened here and removes the place. */
  dispose(): Promise<void>;
}

/** A state store implementation under the contract tests. */
export interface StoreFactory {
  readonly name: string;
  place(): Promise<StorePlace>;
  /** Removes what the factory made for this test file. */
  cleanup(): Promise<void>;
}

function placeAt(target: string, remove: () => Promise<void>): StorePlace {
  const opened: StateStore[] = [];
  return {
    target,
    async open(options = {}) {
      const store = await openState(target, options);
      opened.push(store);
      return store;
    },
    async dispose() {
      for (const s of opened.splice(0)) await s.close();
      await remove();
    },
  };
}

/** SQLite: a file in a fresh temporary directory per place. */
export const sqliteFactory: StoreFactory = {
  name: 'sqlite',
  async place() {
    const dir = mkdtempSync(join(tmpdir(), 'platctl-state-'));
    return placeAt(join(dir, 'state.db'), async () =>
      rmSync(dir, { recursive: true, force: true }),
    );
  },
  async cleanup() {},
};

/**
 * PostgreSQL: one fresh schema per test file (dropped afterwards); each place starts from empty
 * tables in it.
 */
function postgresFactory(): StoreFactory {
  let schema: Promise<TestSchema> | undefined;
  return {
    name: 'postgres',
    async place() {
      schema ??= testSchema('state');
      const s = await schema;
      const { rows } = await s.query(
        `SELECT table_name FROM information_schema.tables
         WHERE table_schema = $1 AND table_name <> 'schema_migrations'`,
        [s.name],
      );
      const tables = rows.map((r) => `"${s.name}"."${r.table_name}"`);
      if (tables.length > 0) await s.query(`TRUNCATE ${tables.join(', ')}`);
      return placeAt(s.url, async () => {});
    },
    async cleanup() {
      if (schema) await (await schema).drop();
      schema = undefined;
    },
  };
}

/**
 * Every store the contract tests run against: SQLite always, PostgreSQL when its test database
 * answers. A new implementation joins by adding its factory here; a method added to the port
 * gets its contract test in test/state/.
 */
export const storeFactories: readonly StoreFactory[] = [
  sqliteFactory,
  ...(postgresUrl ? [postgresFactory()] : []),
];

/** Opens places for the tests of one describe block; disposes of them after each test. */
export function placesOf(factory: StoreFactory) {
  const places: StorePlace[] = [];
  afterEach(async () => {
    for (const p of places.splice(0)) await p.dispose();
  });
  afterAll(() => factory.cleanup());
  return {
    async open(options?: { clock?: Clock }): Promise<StateStore> {
      return (await this.place()).open(options);
    },
    async place(): Promise<StorePlace> {
      const place = await factory.place();
      places.push(place);
      return place;
    },
  };
}
