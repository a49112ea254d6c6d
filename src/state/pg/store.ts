import pg from 'pg';
import { type Clock, systemClock } from '../../core/clock.js';
import { PlatctlError } from '../../core/errors.js';
import type { ActionOutcome } from '../../model/action.js';
import { StoredManifests } from '../stored-manifests.js';
import {
  applyWrite,
  type InventoryEntry,
  type LeaseHandle,
  type PendingOperation,
  type StateStore,
  type StateWrite,
} from '../types.js';
import { classified, messageOf } from './classify.js';
import { pgControllerMethods } from './controller.js';
import { acquireAdvisory, currentHolder, type Fence, type LockSession } from './lease.js';
import { migrate } from './migrations.js';
import { connectSession, destroySession, type SessionLimits, sessionConfig } from './session.js';
import { parsePostgresTarget } from './target.js';
import { fencedWrite, inTransaction } from './write.js';
import { pruneOutcomesOn, writerOn } from './writer.js';

/** Options of {@link openPostgresStore}. */
export interface PostgresStoreOptions {
  readonly clock?: Clock;
  /** Server-side bounds on stalled sessions. @default 15 s in a transaction, lock ttl when idle */
  readonly idleInTransactionMs?: number;
}

const RUN_LOCK = 'run';

interface InventoryRow {
  key: string;
  kind: string;
  ref: InventoryEntry['ref'];
  id: string | null;
  created_by_platctl: boolean;
  protected: boolean;
}

/**
 * Opens the PostgreSQL state store at `url` (I/O): connects, applies pending schema migrations
 * under an advisory lock, and returns the store. Reads and writes go through a small pool; the
 * run lease is an advisory lock on a dedicated session (see {@link acquireAdvisory}), and while
 * it is held every write carries its epoch, so a holder that lost it cannot write. The only
 * module, with its siblings, that imports `pg`. Messages never show the URL's password.
 */
export async function openPostgresStore(
  url: string,
  options: PostgresStoreOptions = {},
): Promise<StateStore> {
  const target = parsePostgresTarget(url);
  const clock = options.clock ?? systemClock;
  const poolLimits: SessionLimits = {
    idleInTransactionMs: options.idleInTransactionMs ?? 15_000,
    idleSessionMs: 0,
  };
  const pool = new pg.Pool({
    ...sessionConfig(target, poolLimits),
    max: 8,
    idleTimeoutMillis: 30_000,
  });
  // an idle pooled client whose server went away: the next query reconnects
  pool.on('error', () => {});
  try {
    const client = await pool.connect();
    try {
      await migrate(client, target.schema);
    } finally {
      client.release();
    }
  } catch (err) {
    await pool.end().catch(() => {});
    throw new PlatctlError(
      'state',
      `cannot open the state store ${target.display}: ${messageOf(err)}`,
      {
        cause: err,
      },
    );
  }

  let lockSession: (LockSession & { end(): Promise<void> }) | undefined;
  let lockTtlMs = 30_000;
  const session = async (): Promise<LockSession> => {
    if (lockSession?.alive()) return lockSession;
    const ended = new AbortController();
    const client = await connectSession(
      sessionConfig(target, { ...poolLimits, idleSessionMs: lockTtlMs }),
      () => ended.abort(),
    );
    lockSession = {
      client,
      alive: () => !ended.signal.aborted,
      lost: ended.signal,
      destroy: () => destroySession(client, ended),
      end: () => client.end(),
    };
    return lockSession;
  };
  let fence: Fence | undefined;
  let held: LeaseHandle | undefined;
  /** The writes of the store, each fenced by what `fenceOf` says when it is sent. */
  const writes = (fenceOf: () => Fence | undefined) => {
    const write = (sql: string, params: unknown[]) => fencedWrite(pool, fenceOf(), sql, params);
    return {
      ...writerOn(write),
      pruneOutcomes: pruneOutcomesOn(write),
      ...pgControllerMethods(pool, write),
      batch: async (list: readonly StateWrite[]) => {
        if (list.length === 0) return;
        const f = fenceOf();
        await inTransaction(pool, async (client) => {
          const writer = writerOn((sql, params) => fencedWrite(client, f, sql, params));
          for (const w of list) await applyWrite(writer, w);
        });
      },
    };
  };

  const store: StateStore = classified(target.display, {
    path: target.display,
    ...writes(() => fence),
    pinned: () => {
      const now = fence;
      return classified(target.display, {
        ...store,
        ...writes(() => now),
        pinned: () => store.pinned!(),
        close: async () => {},
      });
    },
    inventory: async () => {
      const { rows } = await pool.query<InventoryRow>(
        'SELECT * FROM inventory ORDER BY key COLLATE "C"',
      );
      return rows.map((r) => ({
        key: r.key,
        kind: r.kind as InventoryEntry['kind'],
        ref: r.ref,
        ...(r.id === null ? {} : { id: r.id }),
        createdByPlatctl: r.created_by_platctl,
        protected: r.protected,
      }));
    },
    lastApplied: async () => {
      // the JSON text as stored, parsed when first asked for (as SQLite's): the driver parsed all
      // 100,000 rows of a no-op plan, which asks for few of them
      const { rows } = await pool.query<[string, string]>({
        text: 'SELECT key, manifest::text FROM last_applied ORDER BY key COLLATE "C"',
        rowMode: 'array',
      });
      return new StoredManifests(rows);
    },
    pending: async () => {
      const { rows } = await pool.query<{
        key: string;
        action_id: string;
        ref: PendingOperation['ref'];
        started_at: string;
      }>('SELECT * FROM pending ORDER BY key COLLATE "C"');
      return rows.map((r) => ({
        key: r.key,
        actionId: r.action_id,
        ref: r.ref,
        startedAt: Number(r.started_at),
      }));
    },
    outcomes: async () => {
      const { rows } = await pool.query<{
        run_id: string;
        action_id: string;
        key: string;
        outcome: ActionOutcome;
      }>('SELECT * FROM outcomes ORDER BY run_id COLLATE "C", action_id COLLATE "C"');
      return rows.map((r) => ({
        runId: r.run_id,
        actionId: r.action_id,
        key: r.key,
        outcome: r.outcome,
      }));
    },
    acquire: async (opts) => {
      if (held && fence?.alive()) {
        if (held.holder.id === opts.holder.id) return held;
        throw new PlatctlError(
          'locked',
          `the state store is locked by another apply or controller: holder ${held.holder.id} in this process`,
        );
      }
      lockTtlMs = opts.ttlMs ?? 30_000;
      const handle = await acquireAdvisory(
        { schema: target.schema, clock, session, query: pool.query.bind(pool) },
        RUN_LOCK,
        opts,
        (f) => {
          fence = f;
          if (!f) held = undefined;
        },
      );
      held = handle;
      return handle;
    },
    leaseHolder: () =>
      currentHolder({ schema: target.schema, query: pool.query.bind(pool) }, RUN_LOCK),
    unlock: async (holderId) => {
      const deps = { schema: target.schema, query: pool.query.bind(pool) };
      const current = await currentHolder(deps, RUN_LOCK);
      if (current?.id !== holderId) return undefined;
      // the advisory lock lives as long as the holder's session: ending the session breaks it
      await pool.query(
        'SELECT pg_terminate_backend(backend_pid) FROM lease WHERE name = $1 AND holder_id = $2',
        [RUN_LOCK, holderId],
      );
      return current;
    },
    close: async () => {
      fence = undefined;
      held = undefined;
      await lockSession?.end().catch(() => {});
      lockSession = undefined;
      await pool.end().catch(() => {});
    },
  });
  return store;
}
