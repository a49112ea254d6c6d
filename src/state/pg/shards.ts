import pg from 'pg';
import { systemClock } from '../../core/clock.js';
import { PlatctlError } from '../../core/errors.js';
import { lockKey, lockKey64, lockOids64 } from './keys.js';
import type { Fence } from './lease.js';
import { migrate } from './migrations.js';
import { reserveRequest } from './rate-budget.js';
import { scopedStore } from './scoped-store.js';
import { connectSession, type SessionLimits, sessionConfig } from './session.js';
import type { ShardCoordinator, ShardCoordinatorOptions } from './shard-coordinator.js';
import { shardStatusMethods } from './shard-status.js';
import { parsePostgresTarget } from './target.js';

const member = (id: string) => `member/${id}`;
const shardLock = (shard: string) => `shard/${shard}`;

/** Opens the coordinator on the state at `url` (I/O), migrating its schema first. */
export async function openShardCoordinator(
  url: string,
  options: ShardCoordinatorOptions,
): Promise<ShardCoordinator> {
  const target = parsePostgresTarget(url);
  const clock = options.clock ?? systemClock;
  const ttlMs = options.ttlMs ?? 15_000;
  const { replica } = options;
  const limits: SessionLimits = { idleInTransactionMs: 15_000, idleSessionMs: 0 };
  const pool = new pg.Pool({ ...sessionConfig(target, limits), max: 4 });
  pool.on('error', () => {});
  const migrating = await pool.connect();
  try {
    await migrate(migrating, target.schema);
  } finally {
    migrating.release();
  }
  const schema = target.schema;
  const run = lockKey(schema, 'run');
  let session: { client: pg.Client; alive: () => boolean } | undefined;
  /** When the seat on the current lock session was joined; undefined while not joined. */
  let joined: number | undefined;
  const held = new Map<string, Fence>();

  const open = async () => {
    if (session?.alive()) return session.client;
    let up = true;
    const client = await connectSession(
      sessionConfig(target, { ...limits, idleSessionMs: ttlMs }),
      () => {
        up = false;
      },
    );
    session = { client, alive: () => up };
    joined = undefined;
    held.clear();
    return client;
  };
  const tryLock = async (client: pg.Client, name: string) => {
    const { rows } = await client.query<{ ok: boolean }>(
      'SELECT pg_try_advisory_lock($1::bigint) AS ok',
      [String(lockKey64(schema, name))],
    );
    return rows[0]!.ok;
  };
  /** The names among `names` whose advisory lock a live session holds, with that session's pid. */
  const lockedBy = async (names: readonly string[]) => {
    const { rows } = await pool.query<{ pid: number; classid: string; objid: string }>(
      `SELECT pid, classid::text, objid::text FROM pg_locks WHERE locktype = 'advisory'
         AND granted AND objsubid = 1
         AND database = (SELECT oid FROM pg_database WHERE datname = current_database())`,
    );
    const pids = new Map(rows.map((r) => [`${r.classid}:${r.objid}`, r.pid]));
    const out = new Map<string, number>();
    for (const name of names) {
      const { classid, objid } = lockOids64(lockKey64(schema, name));
      const pid = pids.get(`${classid}:${objid}`);
      if (pid !== undefined) out.set(name, pid);
    }
    return out;
  };

  const heldNow = () => new Map([...held].filter(([, f]) => f.alive()));
  return {
    ...shardStatusMethods(pool, heldNow),
    joinedSince: () => (session?.alive() ? joined : undefined),
    async join() {
      const client = await open();
      if (joined !== undefined) {
        await client.query('UPDATE shard_members SET seen_at = $2 WHERE replica_id = $1', [
          replica.id,
          clock.now(),
        ]);
        return true;
      }
      const { rows } = await client.query<{ ok: boolean }>(
        'SELECT pg_try_advisory_lock_shared($1, $2) AS ok',
        [run.space, run.id],
      );
      if (!rows[0]!.ok) return false;
      if (!(await tryLock(client, member(replica.id)))) {
        throw new PlatctlError('locked', `replica ${replica.id} is already joined elsewhere`);
      }
      await client.query(
        `INSERT INTO shard_members (replica_id, pid, host, since, backend_pid, seen_at)
         VALUES ($1, $2, $3, $4, pg_backend_pid(), $4)
         ON CONFLICT (replica_id) DO UPDATE SET backend_pid = excluded.backend_pid,
           seen_at = excluded.seen_at`,
        [replica.id, replica.pid, replica.host, clock.now()],
      );
      joined = clock.now();
      return true;
    },
    async members() {
      const { rows } = await pool.query<{
        replica_id: string;
        pid: number;
        host: string;
        since: string;
        backend_pid: number;
      }>('SELECT * FROM shard_members ORDER BY replica_id COLLATE "C"');
      const live = await lockedBy(rows.map((r) => member(r.replica_id)));
      const dead = rows.filter((r) => live.get(member(r.replica_id)) !== r.backend_pid);
      if (dead.length > 0) {
        // a dead replica's row: its session (and every lock on it) is gone for good
        // (rows another replica is deleting are skipped: no waiting, so no deadlock)
        await pool.query(
          `DELETE FROM shard_members WHERE replica_id IN (
             SELECT replica_id FROM shard_members
             WHERE replica_id = ANY($1) AND backend_pid = ANY($2) FOR UPDATE SKIP LOCKED)`,
          [dead.map((r) => r.replica_id), dead.map((r) => r.backend_pid)],
        );
      }
      return rows
        .filter((r) => !dead.includes(r))
        .map((r) => ({ id: r.replica_id, pid: r.pid, host: r.host, since: Number(r.since) }));
    },
    async take(shard) {
      if (held.get(shard)?.alive()) return true;
      if (joined === undefined || !session?.alive()) return false;
      const { client, alive } = session;
      if (!(await tryLock(client, shardLock(shard)))) return false;
      const { rows } = await client.query<{ epoch: string }>(
        `INSERT INTO lease (name, epoch, holder_id, pid, host, since, run_id, backend_pid)
         VALUES ($1, 1, $2, $3, $4, $5, NULL, pg_backend_pid())
         ON CONFLICT (name) DO UPDATE SET epoch = lease.epoch + 1, holder_id = excluded.holder_id,
           pid = excluded.pid, host = excluded.host, since = excluded.since, run_id = NULL,
           backend_pid = excluded.backend_pid
         RETURNING epoch`,
        [shardLock(shard), replica.id, replica.pid, replica.host, clock.now()],
      );
      held.set(shard, { name: shardLock(shard), epoch: Number(rows[0]!.epoch), alive });
      return true;
    },
    async release(shard) {
      if (!held.delete(shard) || !session?.alive()) return;
      await session.client.query('SELECT pg_advisory_unlock($1::bigint)', [
        String(lockKey64(schema, shardLock(shard))),
      ]);
    },
    held: heldNow,
    async owners() {
      const { rows } = await pool.query<{
        name: string;
        holder_id: string;
        epoch: string;
        since: string;
        backend_pid: number;
      }>('SELECT * FROM lease WHERE name LIKE \'shard/%\' ORDER BY name COLLATE "C"');
      const live = await lockedBy(rows.map((r) => r.name));
      return rows
        .filter((r) => live.get(r.name) === r.backend_pid)
        .map((r) => ({
          shard: r.name.slice('shard/'.length),
          replicaId: r.holder_id,
          epoch: Number(r.epoch),
          since: Number(r.since),
        }));
    },
    view: (base, fences) => scopedStore(base, pool, fences),
    reserve: (spacingMs) => reserveRequest(pool, spacingMs),
    async close() {
      held.clear();
      joined = undefined;
      const s = session;
      session = undefined;
      if (s?.alive()) {
        await s.client
          .query('DELETE FROM shard_members WHERE replica_id = $1', [replica.id])
          .catch(() => {});
        // ending the session releases every lock it held
        await s.client.end().catch(() => {});
      }
      await pool.end().catch(() => {});
    },
  };
}
