import type { Clock } from '../../core/clock.js';
import type { LeaseHolder, StateStore, StoredJson } from '../types.js';
import type { Fence } from './lease.js';
import type { Reservation } from './rate-budget.js';

/*
 * The contract of a controller replica's seat among the sharded replicas (`--shard-by`):
 * what the controller's shard code uses and tests fake; `shards.ts` implements it on PostgreSQL.
 */

/** A controller replica that joined the shared store, as the registry shows it. */
interface ShardMember {
  readonly id: string;
  readonly pid: number;
  readonly host: string;
  /** Epoch milliseconds when it joined. */
  readonly since: number;
}

/** Who holds a shard's lock now. */
interface ShardOwner {
  readonly shard: string;
  readonly replicaId: string;
  readonly epoch: number;
  /** Epoch milliseconds when it took the shard. */
  readonly since: number;
}

/**
 * One replica's seat among the replicas that share a PostgreSQL state (I/O). Every lock lives on
 * one dedicated session, so a replica that dies (kill -9, node loss, network cut) or stalls past
 * the ttl (the server's `idle_session_timeout`) drops its membership and all its shards at once.
 */
export interface ShardCoordinator {
  /**
   * Joins, or stays joined (a heartbeat): the run lock in shared mode (so `platctl apply`, which
   * takes it exclusively, never writes beside sharded replicas), then the replica's own lock and
   * registry row. False while an apply or an unsharded controller holds the run lock. A lock
   * session that ended is reopened; the shards it held are gone.
   */
  join(): Promise<boolean>;
  /**
   * When the current seat was joined (this coordinator's clock): a lock session that ended and
   * was reopened is a new seat, joined anew. Undefined while not joined.
   */
  joinedSince(): number | undefined;
  /** The live replicas (whose session holds their lock), sorted by id. */
  members(): Promise<ShardMember[]>;
  /** Takes `shard`'s lock without waiting and bumps its epoch; true when held (already or now). */
  take(shard: string): Promise<boolean>;
  /** Gives `shard` up (idempotent). */
  release(shard: string): Promise<void>;
  /** The shards held now, each with the fence its writes carry. */
  held(): ReadonlyMap<string, Fence>;
  /** Who holds each shard that is held by a live session. */
  owners(): Promise<ShardOwner[]>;
  /**
   * `base` narrowed to the shards of `fences`: reads return only their records, and each write is
   * fenced by the epoch of its shard's lock as it was when the view was made, so a run's write is
   * refused once its replica lost that shard, even if it took the shard again since.
   */
  view(base: StateStore, fences: ReadonlyMap<string, Fence>): StateStore;
  /**
   * Reserves the start of one platform request in the budget the replicas share, `spacingMs`
   * after the previous reservation of any replica (see {@link reserveRequest}).
   */
  reserve(spacingMs: number): Promise<Reservation>;
  /** The status document `shard`'s holders last saved (I/O); undefined when none was. */
  status(shard: string): Promise<StoredJson | undefined>;
  /** Saves `shard`'s status document under its lock's epoch; `locked` when not held (I/O). */
  putStatus(shard: string, doc: StoredJson): Promise<void>;
  /** The fleet's intent document (what people asked of every replica); undefined before any (I/O). */
  intent(): Promise<StoredJson | undefined>;
  /** Saves the fleet's intent under the `global` shard's epoch; `locked` when not held (I/O). */
  putIntent(doc: StoredJson): Promise<void>;
  /** Leaves: every lock released, the registry row removed; then closes (idempotent). */
  close(): Promise<void>;
}

/** Options of {@link openShardCoordinator}. */
export interface ShardCoordinatorOptions {
  readonly replica: LeaseHolder;
  /** A stalled replica loses its seat after this long. @default 15000 */
  readonly ttlMs?: number;
  readonly clock?: Clock;
}
