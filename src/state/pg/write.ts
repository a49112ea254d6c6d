import type pg from 'pg';
import { PlatctlError } from '../../core/errors.js';
import type { Fence } from './lease.js';

/**
 * Runs one write (I/O) as a single statement behind a `fence` CTE: with a held lease, the CTE
 * share-locks the lease row only if its epoch is still ours, and the write (which selects from,
 * or checks, `fence`) happens only then, atomically. A new holder bumps the epoch under an
 * exclusive row lock, so a write either commits before the takeover or is refused after it.
 * Without a lease (tools, tests) the fence is one row and always passes. `sql` uses $1 and $2
 * for the fence and $3... for `params`.
 */
export async function fencedWrite(
  pool: pg.Pool | pg.PoolClient,
  fence: Fence | undefined,
  sql: string,
  params: readonly unknown[],
): Promise<void> {
  if (fence && !fence.alive()) throw lost(fence);
  const head = fence
    ? 'SELECT 1 FROM lease WHERE name = $1::text AND epoch = $2::bigint FOR SHARE'
    : 'SELECT $1::text, $2::bigint';
  const { rows } = await pool.query<{ ok: number }>(
    `WITH fence AS (${head}), w AS (${sql}) SELECT (SELECT count(*) FROM fence)::int AS ok`,
    [fence?.name ?? '', fence?.epoch ?? 0, ...params],
  );
  if (rows[0]?.ok !== 1 && fence) throw lost(fence);
}

function lost(fence: Fence): PlatctlError {
  return new PlatctlError(
    'locked',
    `write refused: the ${fence.name} lease taken at epoch ${fence.epoch} was lost ` +
      '(another holder took over, or its database session ended); this process no longer writes',
  );
}

/** Runs `body` on one pooled client between BEGIN and COMMIT, rolled back if it throws (I/O). */
export async function inTransaction(
  pool: pg.Pool,
  body: (client: pg.PoolClient) => Promise<void>,
): Promise<void> {
  const client = await pool.connect();
  // A connection lost while checked out is also emitted as an event that nothing else listens
  // to (the pool listens to idle clients only): unheard, it would end the process. The query
  // in progress rejects with it, which is how this transaction learns of it.
  let broken: Error | undefined;
  const onError = (err: Error) => {
    broken = err;
  };
  client.on('error', onError);
  try {
    await client.query('BEGIN');
    await body(client);
    await client.query('COMMIT');
  } catch (err) {
    if (!broken) await client.query('ROLLBACK').catch(() => {});
    throw err;
  } finally {
    client.off('error', onError);
    client.release(broken);
  }
}
