import pg from 'pg';
import type { TestProject } from 'vitest/node';

/** The server PostgreSQL tests use. */
export const TEST_DATABASE_URL =
  process.env.PLATCTL_TEST_DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The test database URL when its server answers; null when PostgreSQL tests are skipped. */
    postgresUrl: string | null;
    /** This run's mark in the names of the schemas it creates (`t<run>_…`). */
    postgresRun: string;
  }
}

/** Schemas of runs older than this are an interrupted run's leftovers, dropped at the next start. */
const STALE_SECONDS = 6 * 3600;

/** This run's mark: its start in seconds, base 36 (sorts and ages). */
const RUN = Math.floor(Date.now() / 1000).toString(36);

/** Drops the test schemas `keep` says to (I/O); failures are ignored (another run may race). */
async function dropSchemas(client: pg.Client, keep: (run: number) => boolean): Promise<void> {
  const { rows } = await client.query<{ name: string }>(
    "SELECT nspname AS name FROM pg_namespace WHERE nspname ~ '^t[0-9a-z]+_'",
  );
  for (const { name } of rows) {
    const run = Number.parseInt(name.slice(1, name.indexOf('_')), 36);
    if (!keep(run)) await client.query(`DROP SCHEMA IF EXISTS "${name}" CASCADE`).catch(() => {});
  }
}

/**
 * Global setup: probes the test database once. Under CI=true an unreachable server fails the
 * run; elsewhere PostgreSQL tests are skipped with one line saying how to run them.
 */
export default async function setup(project: TestProject): Promise<(() => Promise<void>) | void> {
  project.provide('postgresRun', RUN);
  const client = new pg.Client({
    connectionString: TEST_DATABASE_URL,
    connectionTimeoutMillis: 3000,
  });
  client.on('error', () => {});
  try {
    await client.connect();
    await client.query('SELECT 1');
    project.provide('postgresUrl', TEST_DATABASE_URL);
    // an interrupted run's schemas go now; this run's go in the teardown below, even when a test
    // file was killed before its own afterAll
    const now = Math.floor(Date.now() / 1000);
    await dropSchemas(client, (run) => now - run < STALE_SECONDS);
    return async () => {
      const teardown = new pg.Client({ connectionString: TEST_DATABASE_URL });
      teardown.on('error', () => {});
      await teardown.connect();
      await dropSchemas(teardown, (run) => run !== Number.parseInt(RUN, 36));
      await teardown.end().catch(() => {});
    };
  } catch (err) {
    const where = TEST_DATABASE_URL.replace(/(\/\/[^/@:]*:)[^@/]*@/, '$1***@');
    if (process.env.CI === 'true') {
      throw new Error(
        `PostgreSQL tests must run under CI=true, but ${where} is unreachable: ${String(err)}`,
      );
    }
    console.warn(
      `PostgreSQL tests skipped: no server at ${where}; start PostgreSQL 15 there or set PLATCTL_TEST_DATABASE_URL to run them.`,
    );
    project.provide('postgresUrl', null);
  } finally {
    await client.end().catch(() => {});
  }
}
