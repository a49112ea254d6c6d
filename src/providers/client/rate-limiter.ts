import PQueue from 'p-queue';

/** How fast and how many at once the platform may be called. */
export interface RateLimitOptions {
  /** Requests per second over any rolling window; undefined or Infinity means unlimited. */
  readonly rps?: number;
  /** Requests in flight at once. @default 8 */
  readonly concurrency?: number;
}

/**
 * The one queue every request (every attempt of every request) goes through. A sliding window
 * (`strict`) of `intervalCap` runs per `interval` keeps the rate at `rps` in any window, however
 * the work is spread. The window is short (see `pacing`): a whole second's worth sent at once
 * stays within rps where it leaves, but jitter on the way moves the tail of one burst into the
 * next second where the platform counts it.
 */
export function createRateLimiter(options: RateLimitOptions = {}): PQueue {
  const concurrency = options.concurrency ?? 8;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new TypeError(`concurrency must be a positive integer, got ${String(concurrency)}`);
  }
  const rps = options.rps;
  if (rps === undefined || rps === Number.POSITIVE_INFINITY) return new PQueue({ concurrency });
  if (!(rps > 0)) throw new TypeError(`rps must be a positive number, got ${String(rps)}`);
  return new PQueue({ concurrency, ...pacing(rps), strict: true });
}

/** The longest burst is this many ms' worth of requests (p-queue's timers count whole ms). */
const STEP_MS = 20;

/**
 * The smallest burst that a whole-millisecond interval can pace at no more than `rps` and no
 * less than 98 % of it (pure): one request per 25 ms at 40 rps, 20 per 20 ms at 1,000 rps; a
 * fractional rate is one request per `1000 / rps` ms.
 */
export function pacing(rps: number): { intervalCap: number; interval: number } {
  const largest = Math.max(1, Math.ceil((rps * STEP_MS) / 1000));
  let best = { intervalCap: 1, interval: Math.ceil(1000 / rps) };
  for (let intervalCap = 1; intervalCap <= largest * 4; intervalCap++) {
    const interval = Math.ceil((1000 * intervalCap) / rps);
    if (intervalCap * 1000 * best.interval > best.intervalCap * 1000 * interval) {
      best = { intervalCap, interval };
    }
    if (intervalCap >= largest && (intervalCap * 1000) / interval >= rps * 0.98) break;
  }
  return best;
}
