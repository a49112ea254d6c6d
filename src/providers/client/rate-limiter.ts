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
 * the work is spread; fractional rates become one run per `1000 / rps` ms.
 */
export function createRateLimiter(options: RateLimitOptions = {}): PQueue {
  const concurrency = options.concurrency ?? 8;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new TypeError(`concurrency must be a positive integer, got ${String(concurrency)}`);
  }
  const rps = options.rps;
  if (rps === undefined || rps === Number.POSITIVE_INFINITY) return new PQueue({ concurrency });
  if (!(rps > 0)) throw new TypeError(`rps must be a positive number, got ${String(rps)}`);
  const intervalCap = Math.max(1, Math.floor(rps));
  return new PQueue({
    concurrency,
    intervalCap,
    interval: Math.ceil((1000 * intervalCap) / rps),
    strict: true,
  });
}
