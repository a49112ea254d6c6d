import { createHash } from 'node:crypto';

/**
 * An advisory lock key: PostgreSQL's two-int form, `space` from the schema (so stores in
 * different schemas of one database never collide) and `id` from the lock's name.
 */
export interface LockKey {
  readonly space: number;
  readonly id: number;
}

const int32 = (text: string) => createHash('sha256').update(text).digest().readInt32BE(0);

/** The advisory lock key of `name` in `schema`. Pure. */
export function lockKey(schema: string, name: string): LockKey {
  return { space: int32(`platctl:${schema}`), id: int32(name) };
}

/** How pg_locks shows a two-int key: as unsigned oids, with objsubid 2. Pure. */
export function lockOids(key: LockKey): { classid: string; objid: string } {
  return { classid: String(key.space >>> 0), objid: String(key.id >>> 0) };
}

/**
 * A 64-bit advisory lock key (PostgreSQL's one-bigint form) of `name` in `schema`: for locks
 * taken per project, where many names share one schema and 32 bits would collide too soon. Pure.
 */
export function lockKey64(schema: string, name: string): bigint {
  return createHash('sha256').update(`platctl:${schema}:${name}`).digest().readBigInt64BE(0);
}

/** How pg_locks shows a one-bigint key: high and low 32 bits as unsigned oids, objsubid 1. Pure. */
export function lockOids64(key: bigint): { classid: string; objid: string } {
  const u = BigInt.asUintN(64, key);
  return { classid: String(u >> 32n), objid: String(u & 0xffffffffn) };
}
