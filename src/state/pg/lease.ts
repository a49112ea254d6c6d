import type pg from 'pg';
import type { Clock } from '../../core/clock.js';
import { PlatctlError } from '../../core/errors.js';
import { describeHolder, lockedMessage } from '../lease.js';
import type { AcquireOptions, LeaseHandle, LeaseInfo } from '../types.js';
import { type LockKey, lockKey, lockOids } from './keys.js';

const POLL_MS = 250;

/** What fences this store's writes: the lock's name and the epoch it was taken at. */
export interface Fence {
  readonly name: string;
  readonly epoch: number;
  /** False once the lock's session ended: the lock is gone even if nobody took it yet. */
  alive(): boolean;
}

/** A dedicated session for advisory locks; a lock taken on it is held exactly while it lives. */
export interface LockSession {
  readonly client: pg.Client;
  alive(): boolean;
  /** Aborted when the session ends (the server closed it, the network dropped it, or `destroy`). */
  readonly lost: AbortSignal;
  /** Closes the connection at once, without a word to the server (which may not answer). */
  destroy(): void;
}

/** The lock session and the store's reads, as the lease needs them. */
export interface LeaseDeps {
  readonly schema: string;
  readonly clock: Clock;
  /** The store's lock session (opened, or reopened after it ended, on demand). */
  session(): Promise<LockSession>;
  query: pg.Pool['query'];
}

interface Row {
  holder_id: string;
  pid: number;
  host: string;
  since: string;
  run_id: string | null;
  epoch: string;
}

/** Who holds lock `name` now: the lease row whose recorded session holds the advisory lock. */
export async function currentHolder(
  deps: Pick<LeaseDeps, 'schema' | 'query'>,
  name: string,
): Promise<LeaseInfo | undefined> {
  const { classid, objid } = lockOids(lockKey(deps.schema, name));
  const { rows } = await deps.query<Row>(
    `SELECT l.* FROM lease l WHERE l.name = $1 AND EXISTS (
       SELECT 1 FROM pg_locks k WHERE k.locktype = 'advisory' AND k.granted
         AND k.pid = l.backend_pid AND k.classid = $2::oid AND k.objid = $3::oid
         AND k.objsubid = 2
         AND k.database = (SELECT oid FROM pg_database WHERE datname = current_database()))`,
    [name, classid, objid],
  );
  const r = rows[0];
  if (!r) return undefined;
  return {
    id: r.holder_id,
    pid: r.pid,
    host: r.host,
    since: Number(r.since),
    ...(r.run_id ? { runId: r.run_id } : {}),
  };
}

/**
 * Takes advisory lock `name` on the dedicated session (I/O), waiting up to `waitMs` while another
 * session holds it, then records the holder and a new epoch in the lease row. The lock ends with
 * the session (kill -9, node loss, network cut, the server's idle_session_timeout after a pause),
 * and the epoch bump makes every later write of the previous holder fail (fencing). The handle
 * pings the session every ttl/3 so the server's idle timeout only fires on a stalled process.
 */
export async function acquireAdvisory(
  deps: LeaseDeps,
  name: string,
  opts: AcquireOptions,
  onFence: (fence: Fence | undefined) => void,
): Promise<LeaseHandle> {
  const key = lockKey(deps.schema, name);
  const deadline = deps.clock.now() + (opts.waitMs ?? 0);
  const { client: session, alive, lost: sessionLost, destroy } = await deps.session();
  for (;;) {
    if (await tryLock(session, key)) break;
    const other = await currentHolder(deps, name);
    if (deps.clock.now() >= deadline || opts.signal?.aborted) {
      const sharing = other ? [] : await sharingReplicas(deps, key);
      throw new PlatctlError(
        'locked',
        other
          ? lockedMessage(other, opts.waitHint)
          : sharing.length > 0
            ? `the state store is used by ${sharing.length} controller replica(s) sharding by ` +
              `project (${sharing.join('; ')}); an apply cannot run beside them: stop them, or ` +
              'change the platform through their git repository'
            : 'the state store is locked by another apply or controller: a session that is just ' +
              `starting or ending; wait for it to finish${opts.waitHint ? ` or ${opts.waitHint}` : ''}`,
      );
    }
    await deps.clock.sleep(
      Math.min(POLL_MS, Math.max(1, deadline - deps.clock.now())),
      opts.signal,
    );
  }
  const { holder } = opts;
  const { rows } = await session.query<{ epoch: string }>(
    `INSERT INTO lease (name, epoch, holder_id, pid, host, since, run_id, backend_pid)
     VALUES ($1, 1, $2, $3, $4, $5, $6, pg_backend_pid())
     ON CONFLICT (name) DO UPDATE SET epoch = lease.epoch + 1, holder_id = excluded.holder_id,
       pid = excluded.pid, host = excluded.host, since = excluded.since,
       run_id = excluded.run_id, backend_pid = excluded.backend_pid
     RETURNING epoch`,
    [name, holder.id, holder.pid, holder.host, deps.clock.now(), opts.runId ?? null],
  );
  const fence: Fence = { name, epoch: Number(rows[0]!.epoch), alive };
  onFence(fence);
  const ttl = opts.ttlMs ?? 30_000;
  let released = false;
  const lost = () =>
    new PlatctlError(
      'locked',
      `the run lease was lost (its database session ended); epoch ${fence.epoch}`,
    );
  const ping = setInterval(() => {
    if (alive()) session.query('SELECT 1').catch(() => {});
  }, ttl / 3);
  ping.unref();
  return {
    holder,
    renew: async () => {
      if (released) return;
      if (!alive()) throw lost();
      const { rows: now } = await session.query<{ epoch: string; holder_id: string }>(
        'SELECT epoch, holder_id FROM lease WHERE name = $1',
        [name],
      );
      if (Number(now[0]?.epoch) !== fence.epoch) {
        const other = await currentHolder(deps, name);
        throw new PlatctlError(
          'locked',
          `the run lease was lost to ${other ? describeHolder(other) : now[0]?.holder_id}`,
        );
      }
    },
    release: async () => {
      if (released) return;
      released = true;
      clearInterval(ping);
      onFence(undefined);
      if (alive()) {
        await session.query('SELECT pg_advisory_unlock($1, $2)', [key.space, key.id]);
      }
    },
    lost: sessionLost,
    abandon: () => {
      released = true;
      clearInterval(ping);
      onFence(undefined);
      destroy();
    },
  };
}

async function tryLock(session: pg.Client, key: LockKey): Promise<boolean> {
  const { rows } = await session.query<{ ok: boolean }>(
    'SELECT pg_try_advisory_lock($1, $2) AS ok',
    [key.space, key.id],
  );
  return rows[0]!.ok;
}

/** The sharded controller replicas holding lock `key` shared, described for people. */
async function sharingReplicas(deps: Pick<LeaseDeps, 'query'>, key: LockKey): Promise<string[]> {
  const { classid, objid } = lockOids(key);
  const { rows } = await deps.query<{ pid: number; host: string; since: string }>(
    `SELECT m.pid, m.host, m.since FROM shard_members m WHERE EXISTS (
       SELECT 1 FROM pg_locks k WHERE k.locktype = 'advisory' AND k.granted
         AND k.mode = 'ShareLock' AND k.pid = m.backend_pid AND k.classid = $1::oid
         AND k.objid = $2::oid AND k.objsubid = 2)
     ORDER BY m.replica_id`,
    [classid, objid],
  );
  return rows.map(
    (r) => `pid ${r.pid} on ${r.host} since ${new Date(Number(r.since)).toISOString()}`,
  );
}
