import type pg from 'pg';
import { PlatctlError } from '../../core/errors.js';
import { lockKey } from './keys.js';

/** One forward-only schema change; `version`s are consecutive from 1 and never edited once shipped. */
export interface Migration {
  readonly version: number;
  readonly name: string;
  readonly sql: string;
}

/**
 * The schema, in order. Add a migration at the end to change it; never edit or reorder one that
 * shipped: a database records the versions it has and applies only the ones after.
 */
export const MIGRATIONS: readonly Migration[] = [
  {
    version: 1,
    name: 'inventory, last-applied, pending, outcomes, lease',
    sql: `
CREATE TABLE inventory (
  key TEXT PRIMARY KEY, kind TEXT NOT NULL, ref JSON NOT NULL, id TEXT,
  created_by_platctl BOOLEAN NOT NULL, protected BOOLEAN NOT NULL);
CREATE TABLE last_applied (key TEXT PRIMARY KEY, manifest JSON NOT NULL);
CREATE TABLE pending (
  key TEXT PRIMARY KEY, action_id TEXT NOT NULL, ref JSON NOT NULL, started_at BIGINT NOT NULL);
CREATE TABLE outcomes (
  run_id TEXT NOT NULL, action_id TEXT NOT NULL, key TEXT NOT NULL, outcome JSON NOT NULL,
  PRIMARY KEY (run_id, action_id));
-- one row per lock name: who holds (or last held) it, and the epoch that fences writes
CREATE TABLE lease (
  name TEXT PRIMARY KEY, epoch BIGINT NOT NULL, holder_id TEXT NOT NULL, pid INTEGER NOT NULL,
  host TEXT NOT NULL, since BIGINT NOT NULL, run_id TEXT, backend_pid INTEGER NOT NULL);
`,
  },
  {
    version: 2,
    name: 'controller status and run history',
    sql: `
CREATE TABLE controller_status (name TEXT PRIMARY KEY, doc JSON NOT NULL);
CREATE TABLE controller_runs (
  seq BIGSERIAL PRIMARY KEY, run_id TEXT NOT NULL UNIQUE, doc JSON NOT NULL);
`,
  },
  {
    version: 3,
    name: 'controller replicas sharing projects',
    sql: `
-- one row per controller replica that joined with --shard-by; it is live while its session
-- holds the replica's advisory lock (pg_locks), seen_at is for people
CREATE TABLE shard_members (
  replica_id TEXT PRIMARY KEY, pid INTEGER NOT NULL, host TEXT NOT NULL, since BIGINT NOT NULL,
  backend_pid INTEGER NOT NULL, seen_at BIGINT NOT NULL);
`,
  },
  {
    version: 4,
    name: 'the request budget sharded replicas share',
    sql: `
-- the earliest time (server clock, epoch ms) the next platform request of any replica may start
CREATE TABLE rate_budget (name TEXT PRIMARY KEY, next_at DOUBLE PRECISION NOT NULL);
INSERT INTO rate_budget (name, next_at) VALUES ('api', 0);
`,
  },
  {
    version: 5,
    name: 'outcomes kept for the newest runs',
    sql: `
-- when an outcome was written (server clock, epoch ms), so the oldest runs' are the ones pruned;
-- rows written before are the oldest (0)
ALTER TABLE outcomes ADD COLUMN at BIGINT NOT NULL DEFAULT 0;
`,
  },
];

/**
 * Brings `schema` up to the newest migration (I/O on `client`, which must be a session of its
 * own). Creates the schema if missing. A session advisory lock serialises processes that start
 * at once: the second waits, then finds nothing left to do. Each migration commits with its
 * version row, so a crash leaves the database at a known version. Refuses a database whose
 * version is newer than this platctl knows (forward only: never downgrade).
 */
export async function migrate(
  client: pg.ClientBase,
  schema: string,
  migrations: readonly Migration[] = MIGRATIONS,
): Promise<number> {
  const key = lockKey(schema, 'migrate');
  await client.query('SELECT pg_advisory_lock($1, $2)', [key.space, key.id]);
  try {
    await client.query(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
    await client.query(
      `CREATE TABLE IF NOT EXISTS "${schema}".schema_migrations (
         version INTEGER PRIMARY KEY, name TEXT NOT NULL,
         applied_at TIMESTAMPTZ NOT NULL DEFAULT now())`,
    );
    const { rows } = await client.query<{ v: number | null }>(
      `SELECT max(version) AS v FROM "${schema}".schema_migrations`,
    );
    const current = rows[0]?.v ?? 0;
    const newest = migrations.at(-1)?.version ?? 0;
    if (current > newest) {
      throw new PlatctlError(
        'state',
        `the state schema is at version ${current}, newer than this platctl knows (${newest}); ` +
          'upgrade platctl (migrations only go forward)',
      );
    }
    for (const m of migrations.filter((x) => x.version > current)) {
      await client.query('BEGIN');
      try {
        await client.query(`SET LOCAL search_path TO "${schema}"`);
        await client.query(m.sql);
        await client.query(
          `INSERT INTO "${schema}".schema_migrations (version, name) VALUES ($1, $2)`,
          [m.version, m.name],
        );
        await client.query('COMMIT');
      } catch (err) {
        await client.query('ROLLBACK').catch(() => {});
        throw err;
      }
    }
    return newest;
  } finally {
    await client.query('SELECT pg_advisory_unlock($1, $2)', [key.space, key.id]).catch(() => {});
  }
}
