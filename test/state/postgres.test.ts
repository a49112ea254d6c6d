import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openState } from '../../src/state/index.js';
import { MIGRATIONS } from '../../src/state/pg/migrations.js';
import { sessionConfig } from '../../src/state/pg/session.js';
import { parsePostgresTarget } from '../../src/state/pg/target.js';
import type { StateStore } from '../../src/state/types.js';
import { postgresUrl, type TestSchema, testSchema } from '../helpers/postgres.js';

const holder = (id: string, pid: number) => ({ id, pid, host: 'pod-a' });
const ref = { kind: 'Workspace' as const, project: 'p', name: 'ws' };

describe.skipIf(!postgresUrl)('PostgreSQL state store', () => {
  let schema: TestSchema;
  const stores: StateStore[] = [];
  const open = async (url = schema.url) => {
    const s = await openState(url);
    stores.push(s);
    return s;
  };
  beforeAll(async () => {
    schema = await testSchema('pgstore');
  });
  afterAll(async () => {
    for (const s of stores) await s.close();
    await schema.drop();
  });

  it('applies each migration once when two processes start at once', async () => {
    const url = new URL(schema.url);
    url.searchParams.set('schema', `${schema.name}_race`);
    try {
      await Promise.all([open(url.toString()), open(url.toString()), open(url.toString())]);
      const { rows } = await schema.query(
        `SELECT version FROM "${schema.name}_race".schema_migrations ORDER BY version`,
      );
      expect(rows.map((r) => r.version)).toEqual(MIGRATIONS.map((m) => m.version));
    } finally {
      await schema.query(`DROP SCHEMA IF EXISTS "${schema.name}_race" CASCADE`);
    }
  });

  it('refuses a database migrated by a newer platctl (forward only)', async () => {
    await open();
    await schema.query(
      `INSERT INTO "${schema.name}".schema_migrations (version, name) VALUES (999, 'future')`,
    );
    try {
      await expect(openState(schema.url)).rejects.toThrow(/version 999, newer than this platctl/);
    } finally {
      await schema.query(`DELETE FROM "${schema.name}".schema_migrations WHERE version = 999`);
    }
  });

  it('never shows the password of the URL in an error', async () => {
    const url = 'postgres://platctl:Sup3r-Secret-pw@127.0.0.1:1/nowhere';
    const err = (await openState(url).catch((e: unknown) => e)) as Error;
    expect(err).toMatchObject({ code: 'state' });
    expect(err.message).toContain('postgres://platctl:***@127.0.0.1:1/nowhere');
    expect(err.message).not.toContain('Sup3r-Secret-pw');
  });

  it('classifies a failure of the server or driver as a state error naming the store', async () => {
    const s = await openState(schema.url);
    await s.close();
    const err = (await s.inventory().catch((e: unknown) => e)) as Error;
    expect(err).toMatchObject({ code: 'state' });
    expect(err.message).toContain(`the state store postgres://postgres@127.0.0.1`);
  });

  it('shows the holder with its run id, and forgets it when the holder session ends', async () => {
    const a = await open();
    const b = await open();
    await a.acquire({ holder: holder('ctl-a', 4242), runId: 'run-7', heartbeat: false });
    expect(await b.leaseHolder()).toMatchObject({ id: 'ctl-a', pid: 4242, runId: 'run-7' });
    await schema.query(
      `SELECT pg_terminate_backend(backend_pid) FROM "${schema.name}".lease WHERE name = 'run'`,
    );
    await expect.poll(() => b.leaseHolder()).toBeUndefined();
  });

  it('fences the writes of a holder whose session ended, before and after a takeover', async () => {
    const a = await open();
    const b = await open();
    await a.acquire({ holder: holder('ctl-a', 1), heartbeat: false });
    await a.beginPending({ key: 'Workspace/p/ws', actionId: 'x', ref, startedAt: 1 });
    const { rows } = await schema.query(
      `SELECT backend_pid FROM "${schema.name}".lease WHERE name = 'run'`,
    );
    await schema.query('SELECT pg_terminate_backend($1)', [rows[0].backend_pid]);
    const lease = await b.acquire({ holder: holder('ctl-b', 2), waitMs: 5000, heartbeat: false });
    await expect(a.clearPending('Workspace/p/ws')).rejects.toMatchObject({ code: 'locked' });
    await expect(a.putLastApplied('Workspace/p/ws', {} as never)).rejects.toThrow(/was lost/);
    expect((await b.pending()).map((p) => p.key)).toEqual(['Workspace/p/ws']);
    await b.clearPending('Workspace/p/ws');
    expect(await b.pending()).toEqual([]);
    await lease.release();
  });

  it('refuses the writes of a stale epoch even if its session still looks alive', async () => {
    const a = await open();
    const b = await open();
    await a.acquire({ holder: holder('ctl-a', 1), heartbeat: false });
    // another holder's epoch, as after a takeover a's process did not notice
    await schema.query(`UPDATE "${schema.name}".lease SET epoch = epoch + 1 WHERE name = 'run'`);
    await expect(a.removeInventory('Workspace/p/ws')).rejects.toMatchObject({ code: 'locked' });
    await expect(b.removeInventory('Workspace/p/ws')).resolves.toBeUndefined();
  });
});

describe.skipIf(!postgresUrl)('PostgreSQL sessions', () => {
  it('bound a stalled or cut-off peer: keepalives and idle timeouts the server accepts', async () => {
    const target = parsePostgresTarget(postgresUrl!);
    const c = new pg.Client(
      sessionConfig(target, { idleInTransactionMs: 15_000, idleSessionMs: 9000 }),
    );
    await c.connect();
    try {
      const show = async (name: string) => (await c.query(`SHOW ${name}`)).rows[0][name];
      expect(await show('idle_in_transaction_session_timeout')).toBe('15s');
      expect(await show('idle_session_timeout')).toBe('9s');
      expect(await show('tcp_keepalives_idle')).toBe('10');
      expect(await show('search_path')).toBe('platctl');
    } finally {
      await c.end();
    }
  });
});
