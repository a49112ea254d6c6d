import PQueue from 'p-queue';
import { type Clock, systemClock } from '../../core/clock.js';
import { GatedLimiter } from './gated-limiter.js';
import { createPacer } from './pacer.js';

/** How fast and how many at once the platform may be called. */
export interface RateLimitOptions {
  /** Requests per second over any rolling window; undefined or Infinity means unlimited. */
  readonly rps?: number;
  /** Requests in flight at once. @default 8 */
  readonly concurrency?: number;
  /** Times the pacing. @default systemClock */
  readonly clock?: Clock;
}

/**
 * The one queue every request (every attempt of every request) goes through: p-queue holds at
 * most `concurrency` in flight, and each starts only at its slot from a {@link createPacer}
 * (`rps` spread evenly over the second, one start every `1000 / rps` ms, never more than `rps`
 * in any rolling second). Even spacing matters: a whole second's worth sent at once stays within
 * rps where it leaves, but jitter on the way moves the tail of one burst into the next second
 * where the platform counts it.
 */
export function createRateLimiter(options: RateLimitOptions = {}): PQueue {
  const concurrency = options.concurrency ?? 8;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new TypeError(`concurrency must be a positive integer, got ${String(concurrency)}`);
  }
  const rps = options.rps;
  if (rps === undefined || rps === Number.POSITIVE_INFINITY) return new PQueue({ concurrency });
  if (!(rps > 0)) throw new TypeError(`rps must be a positive number, got ${String(rps)}`);
  return new GatedLimiter({ concurrency, gate: createPacer(rps, options.clock ?? systemClock) });
}
