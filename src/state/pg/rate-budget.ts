import type pg from 'pg';

/** A reserved start: when (the server's clock, epoch ms), and the server's time when reserved. */
export interface Reservation {
  readonly slotMs: number;
  readonly nowMs: number;
}

/**
 * Reserves the next start of one platform request in the budget all sharded replicas share
 * (I/O: one statement): the row holds the earliest time, on the database server's clock, the
 * next request of any replica may start; each reservation takes `max(next, now)` and moves the
 * row `spacingMs` past it under the row's lock, so no two reservations, whoever makes them, are
 * closer than `spacingMs`. The caller waits `slotMs - nowMs` before starting.
 */
export async function reserveRequest(pool: pg.Pool, spacingMs: number): Promise<Reservation> {
  if (!(spacingMs > 0)) throw new TypeError(`spacingMs must be positive, got ${spacingMs}`);
  const { rows } = await pool.query<{ slot: number; now: number }>(
    `WITH now AS (SELECT extract(epoch FROM clock_timestamp()) * 1000 AS ms)
     UPDATE rate_budget SET next_at = GREATEST(next_at, now.ms) + $1 FROM now
     WHERE name = 'api' RETURNING next_at - $1 AS slot, now.ms::float8 AS now`,
    [spacingMs],
  );
  const row = rows[0]!;
  return { slotMs: Number(row.slot), nowMs: Number(row.now) };
}
