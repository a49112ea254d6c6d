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
