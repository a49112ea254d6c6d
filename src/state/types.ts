import type { ActionOutcome, ResourceRef } from '../model/action.js';
import type { Kind, Manifest } from '../model/manifest.js';

/** A JSON object the controller keeps across restarts; the store does not look inside. */
export type StoredJson = { readonly [key: string]: unknown };

/** One resource platctl manages, as kept in the inventory. */
export interface InventoryEntry {
  readonly key: string;
  readonly kind: Kind;
  readonly ref: ResourceRef;
  /** The platform's id (user accountId) where the API addresses the resource by it. */
  readonly id?: string;
  /** True when platctl created it; only those are prune candidates. */
  readonly createdByPlatctl: boolean;
  /** True when its last-applied manifest carried `platctl.io/prune: disabled`. */
  readonly protected: boolean;
}

/** A create that was started and not yet confirmed; the next run adopts the object if it is live. */
export interface PendingOperation {
  readonly key: string;
  readonly actionId: string;
  readonly ref: ResourceRef;
  /** Epoch milliseconds. */
  readonly startedAt: number;
}

/** One action's outcome as {@link StateStore.recordOutcome} kept it. */
interface RecordedOutcome {
  readonly runId: string;
  readonly actionId: string;
  readonly key: string;
  readonly outcome: ActionOutcome;
}

/** Who holds the run lease: enough for a person to find it. */
export interface LeaseHolder {
  /** Unique per process (and per controller replica); re-acquiring with the same id succeeds. */
  readonly id: string;
  readonly pid: number;
  readonly host: string;
}

export interface LeaseInfo extends LeaseHolder {
  /** Epoch milliseconds when the holder took the lease. */
  readonly since: number;
  /**
   * Epoch milliseconds after which the lease may be taken over unless renewed; absent where the
   * lease lasts exactly as long as its holder's database session (PostgreSQL).
   */
  readonly expiresAt?: number;
  /** The run the holder is doing, when it said. */
  readonly runId?: string;
}

/** A held lease. The holder renews it (heartbeat) and releases it when done. */
export interface LeaseHandle {
  readonly holder: LeaseHolder;
  /** Extends the expiry by the lease's ttl; rejects with `locked` when it was lost to another holder. */
  renew(): Promise<void>;
  /** Gives the lease up (idempotent). */
  release(): Promise<void>;
  /**
   * Aborted the moment the lease is known lost without asking anyone (its database session
   * ended); absent where that cannot be known (SQLite: an expiry that someone else acts on).
   */
  readonly lost?: AbortSignal;
  /**
   * Gives the lease up at once, without waiting on the database (I/O: the lock's connection is
   * closed, and the server frees the lock when it sees that): for a holder that could not renew
   * in time, whose database may not answer at all. Absent where release never waits.
   */
  abandon?(): void;
}

export interface AcquireOptions {
  readonly holder: LeaseHolder;
  /** The run taking the lease, shown to whoever finds it held. */
  readonly runId?: string;
  /** How long to wait for a held lease before failing with `locked`; 0 (default) fails at once. */
  readonly waitMs?: number;
  /**
   * How the caller can wait longer, said in the `locked` message (`use --lock-timeout to wait
   * longer`); without one the message names no way the caller may not have.
   */
  readonly waitHint?: string;
  /** Lifetime without renewal. @default 30000 */
  readonly ttlMs?: number;
  /** Renew automatically every ttl/3 of real time until released. @default true */
  readonly heartbeat?: boolean;
  readonly signal?: AbortSignal;
}

/** One write of {@link StateStore.batch}: the name and arguments of a single-write method. */
export type StateWrite =
  | { readonly type: 'putInventory'; readonly entry: InventoryEntry }
  | { readonly type: 'removeInventory'; readonly key: string }
  | { readonly type: 'putLastApplied'; readonly key: string; readonly manifest: Manifest }
  | { readonly type: 'removeLastApplied'; readonly key: string }
  | { readonly type: 'beginPending'; readonly op: PendingOperation }
  | { readonly type: 'clearPending'; readonly key: string }
  | {
      readonly type: 'recordOutcome';
      readonly runId: string;
      readonly actionId: string;
      readonly key: string;
      readonly outcome: ActionOutcome;
    };

/**
 * Deletes the outcomes of every run but the newest `keep` (a placeholder: by the last time each
 * run wrote one; ties by run id): one statement both SQL stores run.
 */
export function pruneOutcomesSql(keep: string, condition = 'TRUE'): string {
  return `DELETE FROM outcomes WHERE run_id NOT IN (
    SELECT run_id FROM outcomes GROUP BY run_id ORDER BY max(at) DESC, run_id DESC LIMIT ${keep})
    AND ${condition}`;
}

/** `keepRuns` when it is a positive integer; TypeError otherwise. */
export function runsKept(keepRuns: number): number {
  if (!Number.isInteger(keepRuns) || keepRuns < 1) {
    throw new TypeError(`keepRuns must be a positive integer, got ${keepRuns}`);
  }
  return keepRuns;
}

/** The single-write methods of a store, which {@link applyWrite} dispatches a {@link StateWrite} to. */
export type StateWriter = Pick<
  StateStore,
  | 'putInventory'
  | 'removeInventory'
  | 'putLastApplied'
  | 'removeLastApplied'
  | 'beginPending'
  | 'clearPending'
  | 'recordOutcome'
>;

/** Calls the method of `writer` that `w` names, with its arguments. */
export function applyWrite<R>(
  writer: { [M in keyof StateWriter]: (...args: Parameters<StateWriter[M]>) => R },
  w: StateWrite,
): R {
  switch (w.type) {
    case 'putInventory':
      return writer.putInventory(w.entry);
    case 'removeInventory':
      return writer.removeInventory(w.key);
    case 'putLastApplied':
      return writer.putLastApplied(w.key, w.manifest);
    case 'removeLastApplied':
      return writer.removeLastApplied(w.key);
    case 'beginPending':
      return writer.beginPending(w.op);
    case 'clearPending':
      return writer.clearPending(w.key);
    case 'recordOutcome':
      return writer.recordOutcome(w.runId, w.actionId, w.key, w.outcome);
    default: {
      const never: never = w;
      return never;
    }
  }
}

/**
 * The engine's persistent memory (I/O). Every method is asynchronous and its write is durable
 * when the promise resolves, so a crash loses at most the action in flight. Implementations:
 * SQLite (a local file, the default) and, behind the same contract, a database server.
 */
export interface StateStore {
  /** Where the state lives, for people (a file path, or a URL without its password). */
  readonly path: string;
  inventory(): Promise<InventoryEntry[]>;
  putInventory(entry: InventoryEntry): Promise<void>;
  removeInventory(key: string): Promise<void>;
  /** Last-applied manifests by identity key. */
  lastApplied(): Promise<ReadonlyMap<string, Manifest>>;
  putLastApplied(key: string, manifest: Manifest): Promise<void>;
  removeLastApplied(key: string): Promise<void>;
  pending(): Promise<PendingOperation[]>;
  /** Written before a create is sent. */
  beginPending(op: PendingOperation): Promise<void>;
  /** Cleared once the create is confirmed (or known not to have happened). */
  clearPending(key: string): Promise<void>;
  /** Keeps each action's outcome of a run, for `/status` and post-mortems. */
  recordOutcome(
    runId: string,
    actionId: string,
    key: string,
    outcome: ActionOutcome,
  ): Promise<void>;
  /**
   * Applies `writes` in order as one transaction (all are kept or none), durable when the promise
   * resolves: what an action's settling writes costs one commit (one round trip to a server)
   * instead of one per record. Each write means what the method of its name does.
   */
  batch(writes: readonly StateWrite[]): Promise<void>;
  /** Every recorded outcome (the history), by run id then action id. */
  outcomes(): Promise<RecordedOutcome[]>;
  /**
   * Keeps the outcomes of the newest `keepRuns` runs (by when their outcomes were last written;
   * a positive integer, TypeError otherwise) and deletes the others, so the history a controller
   * writes every interval stays bounded. Fenced like every write.
   */
  pruneOutcomes(keepRuns: number): Promise<void>;
  /** The run lease; two writers never act on one store at once. */
  acquire(options: AcquireOptions): Promise<LeaseHandle>;
  /** Who holds the lease now, if anyone holds an unexpired one. */
  leaseHolder(): Promise<LeaseInfo | undefined>;
  /**
   * Breaks the run lease if `holderId` holds it (`platctl state unlock`, like Terraform's
   * force-unlock) and returns who held it; undefined, changing nothing, when it does not. The
   * holder, if it still runs, loses the lease at its next renewal and stops writing.
   */
  unlock(holderId: string): Promise<LeaseInfo | undefined>;
  /** The controller's saved status document, or undefined before the first save. */
  controllerStatus(): Promise<StoredJson | undefined>;
  /** Replaces the controller's saved status document. */
  putControllerStatus(doc: StoredJson): Promise<void>;
  /**
   * What people asked of the controller through its control API (a suspension, approved
   * deletions), or undefined before anyone asked: read by whichever replica leads, at each run.
   */
  controllerIntent(): Promise<StoredJson | undefined>;
  /** Replaces the controller's intent document; fenced like every write. */
  putControllerIntent(doc: StoredJson): Promise<void>;
  /**
   * Adds (or replaces, by `runId`) a run in the controller's history and keeps only the newest
   * `keep` (a positive integer; TypeError otherwise).
   */
  appendRun(runId: string, doc: StoredJson, keep: number): Promise<void>;
  /** The newest `limit` runs of the history, newest first. */
  runs(limit: number): Promise<StoredJson[]>;
  /**
   * This store as one run should write it (no I/O): every write carries the lease epoch held
   * now, so once that lease is lost the run's writes stay refused even if this process takes
   * the lease again (fencing per run, not per process). Its `close` closes nothing. Absent
   * where the store has no epochs (SQLite, whose file lock serves one process).
   */
  pinned?(): StateStore;
  /** Closes the store (idempotent). */
  close(): Promise<void>;
}
