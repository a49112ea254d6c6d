import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';

/** The test database URL, or null when PostgreSQL tests are skipped (see postgres-setup.ts). */
export const postgresUrl: string | null = inject('postgresUrl');
const run: string = inject('postgresRun');

/** A fresh schema for one test file; `drop()` removes it with everything in it. */
export interface TestSchema {
  readonly name: string;
  /** The state URL that puts platctl's tables in this schema. */
  readonly url: string;
  query(sql: string, params?: unknown[]): Promise<pg.QueryResult>;
  drop(): Promise<void>;
}

/** Creates a uniquely named schema on the test database (I/O). */
export async function testSchema(label: string): Promise<TestSchema> {
  if (!postgresUrl) throw new Error('PostgreSQL tests are skipped: no test database');
  // `t<run>_`: the global setup drops this run's schemas at its end, and a killed run's later
  const name = `t${run}_${label.replace(/[^a-z0-9_]/g, '_').slice(0, 40)}_${randomBytes(4).toString('hex')}`;
  const admin = new pg.Client({ connectionString: postgresUrl });
  admin.on('error', () => {});
  await admin.connect();
  await admin.query(`CREATE SCHEMA "${name}"`);
  const url = new URL(postgresUrl);
  url.searchParams.set('schema', name);
  return {
    name,
    url: url.toString(),
    query: (sql, params) => admin.query(sql, params),
    drop: async () => {
      await admin.query(`DROP SCHEMA IF EXISTS "${name}" CASCADE`).catch(() => {});
      await admin.end().catch(() => {});
    },
  };
}
