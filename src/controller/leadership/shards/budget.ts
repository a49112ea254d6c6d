import type { Clock } from '../../../core/clock.js';
import type { Logger } from '../../../core/logger.js';
import type { ShardCoordinator } from '../../../state/index.js';

/**
 * Starts are spaced 10% wider than `--rps` asks: a start happens after a local sleep and reaches
 * the platform after a network hop, and those delays vary by tens of milliseconds between
 * replicas on a busy node; without the margin they bunch starts into one second of the
 * platform's clock past the budget (bench/shard.ts measured 42 in a second at --rps 40).
 */
const PACE_MARGIN = 1.1;

/**
 * The gate of a sharded replica's API client (I/O): waits until this replica may start one
 * platform request within the budget all replicas share — a reservation in the database,
 * `1000 / rps` ms (and the margin above) after the previous one of any replica. While the
 * database cannot be reached nothing is sent (it is asked again every second): a replica cut off
 * from it stops calling the platform too.
 */
export function budgetGate(deps: {
  readonly coordinator: Pick<ShardCoordinator, 'reserve'>;
  readonly rps: number;
  readonly clock: Clock;
  readonly logger: Logger;
}): (signal?: AbortSignal) => Promise<void> {
  const { coordinator, rps, clock, logger } = deps;
  return async (signal) => {
    for (;;) {
      try {
        const r = await coordinator.reserve(PACE_MARGIN * (1000 / rps));
        if (r.slotMs > r.nowMs) await clock.sleep(r.slotMs - r.nowMs, signal);
        return;
      } catch (err) {
        if (signal?.aborted || err instanceof TypeError) throw err;
        logger.error({ event: 'budget-error' }, String(err));
        await clock.sleep(1000, signal);
      }
    }
  };
}
