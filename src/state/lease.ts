import type Database from 'better-sqlite3';
import type { Clock } from '../core/clock.js';
import { PlatctlError } from '../core/errors.js';
import { holderIsDeadHere } from './holder.js';
import type { AcquireOptions, LeaseHandle, LeaseInfo } from './types.js';

const POLL_MS = 250;

/**
 * Describes a holder for people:
 * `pid 4242 on build-7 since 2026-11-22T05:40:00.000Z (holder apply:..., run 1b2c...)`.
 */
export function describeHolder(h: LeaseInfo): string {
  const run = h.runId ? `, run ${h.runId}` : '';
  return `pid ${h.pid} on ${h.host} since ${new Date(h.since).toISOString()} (holder ${h.id}${run})`;
}

/**
 * What to do when the lease is held: wait (and how to wait longer, when the caller has a way:
 * `waitHint`, e.g. `use --lock-timeout to wait longer`), or break a lease whose holder is gone.
 */
export function lockedMessage(other: LeaseInfo, waitHint?: string): string {
  return (
    `the state store is locked by another apply or controller: ${describeHolder(other)}; ` +
    `wait for it to finish${waitHint ? ` or ${waitHint}` : ''}; if that holder is gone, ` +
    `break the lease with: platctl state unlock ${other.id}`
  );
}

/**
 * Takes the run lease in `db` (I/O), waiting up to `waitMs` on `clock` while another holder's
 * unexpired lease stands. A lease whose holder `isDead` (a process of this host that no longer
 * runs: a `kill -9`ed apply or controller) is taken over at once. Re-acquiring with the same
 * holder id succeeds (a controller that holds the lease can run applies). Fails with code
 * `locked`, naming the holder.
 */
export async function createLease(
  db: Database.Database,
  clock: Clock,
  current: () => LeaseInfo | undefined,
  opts: AcquireOptions,
  isDead: (holder: LeaseInfo) => boolean = holderIsDeadHere,
): Promise<LeaseHandle> {
  const ttl = opts.ttlMs ?? 30_000;
  const { holder } = opts;
  const take = db.transaction((): LeaseInfo | undefined => {
    const now = clock.now();
    const held = current();
    const mine = held?.id === holder.id;
    if (held && !mine && !isDead(held)) return held;
    db.prepare(
      `INSERT INTO lease (name, holder_id, pid, host, since, expires_at, run_id)
       VALUES ('run', ?, ?, ?, ?, ?, ?)
       ON CONFLICT(name) DO UPDATE SET holder_id=excluded.holder_id, pid=excluded.pid,
         host=excluded.host, since=excluded.since, expires_at=excluded.expires_at,
         run_id=excluded.run_id`,
    ).run(
      holder.id,
      holder.pid,
      holder.host,
      mine ? held.since : now,
      now + ttl,
      opts.runId ?? null,
    );
    return undefined;
  });
  const deadline = clock.now() + (opts.waitMs ?? 0);
  for (;;) {
    const other = take.immediate();
    if (!other) break;
    if (clock.now() >= deadline || opts.signal?.aborted) {
      throw new PlatctlError('locked', lockedMessage(other, opts.waitHint));
    }
    await clock.sleep(Math.min(POLL_MS, Math.max(1, deadline - clock.now())), opts.signal);
  }
  let released = false;
  const renew = async () => {
    if (released) return;
    const held = current();
    if (held && held.id !== holder.id) {
      throw new PlatctlError('locked', `the run lease was lost to ${describeHolder(held)}`);
    }
    db.prepare("UPDATE lease SET expires_at = ? WHERE name = 'run' AND holder_id = ?").run(
      clock.now() + ttl,
      holder.id,
    );
  };
  const timer =
    opts.heartbeat === false
      ? undefined
      : setInterval(() => {
          // a lost lease shows up at the next explicit renew()
          renew().catch(() => {});
        }, ttl / 3);
  timer?.unref();
  return {
    holder,
    renew,
    release: async () => {
      if (released) return;
      released = true;
      if (timer) clearInterval(timer);
      if (db.open)
        db.prepare("DELETE FROM lease WHERE name = 'run' AND holder_id = ?").run(holder.id);
    },
  };
}
