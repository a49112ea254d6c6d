import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { type Clock, systemClock } from '../core/clock.js';
import { PlatctlError } from '../core/errors.js';
import type { ActionOutcome } from '../model/action.js';
import type { Manifest } from '../model/manifest.js';
import { createLease } from './lease.js';
import { sqliteControllerMethods } from './sqlite-controller.js';
import { sqliteInventory } from './sqlite-inventory.js';
import { SEPARATOR, StoredManifests } from './stored-manifests.js';
import {
  applyWrite,
  type InventoryEntry,
  type LeaseInfo,
  type PendingOperation,
  pruneOutcomesSql,
  runsKept,
  type StateStore,
  type StateWrite,
} from './types.js';

/** The default location, relative to the working directory. */
export const DEFAULT_STATE_PATH = '.platctl/state.db';

// The tables every settle writes, their rows small, are WITHOUT ROWID: one b-tree keyed by the
// primary key instead of a rowid table plus an index on the key, so a commit writes half the
// pages to the WAL (what a commit costs is mostly those pages). A file made before keeps its
// tables as they are: the same statements run on both layouts. (last_applied rows, whole
// manifests, can be large: they stay in a rowid table, as SQLite advises.)
const SCHEMA = `
CREATE TABLE IF NOT EXISTS inventory (
  key TEXT PRIMARY KEY, kind TEXT NOT NULL, ref TEXT NOT NULL, id TEXT,
  created_by_platctl INTEGER NOT NULL, protected INTEGER NOT NULL) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS last_applied (key TEXT PRIMARY KEY, manifest TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS pending (
  key TEXT PRIMARY KEY, action_id TEXT NOT NULL, ref TEXT NOT NULL, started_at INTEGER NOT NULL)
  WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS outcomes (
  run_id TEXT NOT NULL, action_id TEXT NOT NULL, key TEXT NOT NULL, outcome TEXT NOT NULL,
  at INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (run_id, action_id)) WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS lease (
  name TEXT PRIMARY KEY, holder_id TEXT NOT NULL, pid INTEGER NOT NULL, host TEXT NOT NULL,
  since INTEGER NOT NULL, expires_at INTEGER NOT NULL, run_id TEXT);
`;

/**
 * Opens (creating if needed) the SQLite state store at `path` (I/O). `:memory:` gives a private
 * in-memory store for tests. The only module that imports better-sqlite3 for engine state; its
 * methods do their work synchronously and return settled promises.
 */
export function openStateStore(path: string, options: { clock?: Clock } = {}): StateStore {
  const clock = options.clock ?? systemClock;
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  let db: Database.Database;
  try {
    db = new Database(path);
    db.pragma('journal_mode = WAL');
    // WAL + NORMAL: every write survives a process crash; only a power cut can lose the last ones
    db.pragma('synchronous = NORMAL');
    db.pragma('busy_timeout = 5000');
    db.exec(SCHEMA);
    // a file made before the lease recorded its run: add the column (NULL for the holder then)
    const leaseColumns = db.prepare('PRAGMA table_info(lease)').all() as { name: string }[];
    if (!leaseColumns.some((c) => c.name === 'run_id')) {
      db.exec('ALTER TABLE lease ADD COLUMN run_id TEXT');
    }
    // a file made before outcomes were pruned: their time is unknown (0, the oldest)
    const outcomeColumns = db.prepare('PRAGMA table_info(outcomes)').all() as { name: string }[];
    if (!outcomeColumns.some((c) => c.name === 'at')) {
      db.exec('ALTER TABLE outcomes ADD COLUMN at INTEGER NOT NULL DEFAULT 0');
    }
  } catch (err) {
    throw new PlatctlError('state', `cannot open the state store ${path}: ${String(err)}`, {
      cause: err,
    });
  }
  const readInventory = sqliteInventory(db);
  const q = {
    putInventory: db.prepare(
      `INSERT INTO inventory (key, kind, ref, id, created_by_platctl, protected)
       VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT(key) DO UPDATE SET kind=excluded.kind, ref=excluded.ref, id=excluded.id,
         created_by_platctl=excluded.created_by_platctl, protected=excluded.protected`,
    ),
    removeInventory: db.prepare('DELETE FROM inventory WHERE key = ?'),
    // rows as [key, text] pairs, the entries of a StoredManifests
    lastApplied: db.prepare('SELECT key, manifest FROM last_applied ORDER BY key').raw(true),
    // the same rows as the keys (JSON) and one text of the manifests (StoredManifests.joined);
    // one row stream feeds both aggregates, so the two are in the same order
    lastAppliedJoined: db
      .prepare(
        `SELECT json_group_array(key), group_concat(manifest, char(${SEPARATOR.charCodeAt(0)}))
         FROM (SELECT key, manifest FROM last_applied ORDER BY key)`,
      )
      .raw(true),
    putLastApplied: db.prepare(
      'INSERT INTO last_applied (key, manifest) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET manifest=excluded.manifest',
    ),
    removeLastApplied: db.prepare('DELETE FROM last_applied WHERE key = ?'),
    pending: db.prepare('SELECT * FROM pending ORDER BY key'),
    beginPending: db.prepare(
      'INSERT OR REPLACE INTO pending (key, action_id, ref, started_at) VALUES (?, ?, ?, ?)',
    ),
    clearPending: db.prepare('DELETE FROM pending WHERE key = ?'),
    recordOutcome: db.prepare(
      'INSERT OR REPLACE INTO outcomes (run_id, action_id, key, outcome, at) VALUES (?, ?, ?, ?, ?)',
    ),
    pruneOutcomes: db.prepare(pruneOutcomesSql('?')),
    holder: db.prepare("SELECT * FROM lease WHERE name = 'run'"),
    outcomes: db.prepare(
      'SELECT run_id, action_id, key, outcome FROM outcomes ORDER BY run_id, action_id',
    ),
  };

  const leaseHolder = (): LeaseInfo | undefined => {
    const row = q.holder.get() as
      | {
          holder_id: string;
          pid: number;
          host: string;
          since: number;
          expires_at: number;
          run_id: string | null;
        }
      | undefined;
    if (!row || row.expires_at <= clock.now()) return undefined;
    return {
      id: row.holder_id,
      pid: row.pid,
      host: row.host,
      since: row.since,
      expiresAt: row.expires_at,
      ...(row.run_id ? { runId: row.run_id } : {}),
    };
  };

  // The writes, synchronous (better-sqlite3), so a batch can run them inside one transaction.
  const put = {
    putInventory: (e: InventoryEntry) => {
      q.putInventory.run(
        e.key,
        e.kind,
        JSON.stringify(e.ref),
        e.id ?? null,
        e.createdByPlatctl ? 1 : 0,
        e.protected ? 1 : 0,
      );
    },
    removeInventory: (key: string) => void q.removeInventory.run(key),
    putLastApplied: (key: string, manifest: Manifest) =>
      void q.putLastApplied.run(key, JSON.stringify(manifest)),
    removeLastApplied: (key: string) => void q.removeLastApplied.run(key),
    beginPending: (op: PendingOperation) =>
      void q.beginPending.run(op.key, op.actionId, JSON.stringify(op.ref), op.startedAt),
    clearPending: (key: string) => void q.clearPending.run(key),
    recordOutcome: (runId: string, actionId: string, key: string, outcome: ActionOutcome) =>
      void q.recordOutcome.run(runId, actionId, key, JSON.stringify(outcome), clock.now()),
  };
  const batch = db.transaction((writes: readonly StateWrite[]) => {
    for (const w of writes) applyWrite(put, w);
  });

  // the joined read, else (keys out of `<` order, a text holding the separator) the rows
  const readLastApplied = () => {
    const [keys, joined] = q.lastAppliedJoined.get() as [string, string | null];
    return (
      StoredManifests.joined(JSON.parse(keys) as string[], joined) ??
      new StoredManifests(q.lastApplied.all() as [string, string][])
    );
  };

  return {
    path,
    inventory: async () => readInventory(),
    putInventory: async (e) => put.putInventory(e),
    removeInventory: async (key) => put.removeInventory(key),
    lastApplied: async () => readLastApplied(),
    putLastApplied: async (key, manifest) => put.putLastApplied(key, manifest),
    removeLastApplied: async (key) => put.removeLastApplied(key),
    pending: async () =>
      (
        q.pending.all() as { key: string; action_id: string; ref: string; started_at: number }[]
      ).map(
        (r): PendingOperation => ({
          key: r.key,
          actionId: r.action_id,
          ref: JSON.parse(r.ref),
          startedAt: r.started_at,
        }),
      ),
    beginPending: async (op) => put.beginPending(op),
    clearPending: async (key) => put.clearPending(key),
    recordOutcome: async (runId, actionId, key, outcome) =>
      put.recordOutcome(runId, actionId, key, outcome),
    batch: async (writes) => batch(writes),
    pruneOutcomes: async (keepRuns) => void q.pruneOutcomes.run(runsKept(keepRuns)),
    outcomes: async () =>
      (
        q.outcomes.all() as { run_id: string; action_id: string; key: string; outcome: string }[]
      ).map((r) => ({
        runId: r.run_id,
        actionId: r.action_id,
        key: r.key,
        outcome: JSON.parse(r.outcome) as ActionOutcome,
      })),
    ...sqliteControllerMethods(db),
    acquire: (opts) => createLease(db, clock, leaseHolder, opts),
    leaseHolder: async () => leaseHolder(),
    unlock: async (holderId) => {
      const held = leaseHolder();
      if (held?.id !== holderId) return undefined;
      db.prepare("DELETE FROM lease WHERE name = 'run' AND holder_id = ?").run(holderId);
      return held;
    },
    close: async () => {
      if (db.open) db.close();
    },
  };
}
