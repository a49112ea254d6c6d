/** How failures are spaced out. */
export interface BackoffOptions {
  /** Delay after the first failure. */
  readonly baseMs: number;
  /** The delay never grows past this. */
  readonly maxMs: number;
  /** Growth per consecutive failure. @default 2 */
  readonly factor?: number;
}

/**
 * The delay after `failures` consecutive failures (1 = the first): `base × factor^(failures-1)`,
 * capped at `max`. Zero failures means no delay. Pure.
 */
export function backoffDelay(failures: number, options: BackoffOptions): number {
  if (failures <= 0) return 0;
  const factor = options.factor ?? 2;
  // Cap the exponent too, so a long outage cannot overflow to Infinity.
  const exp = Math.min(failures - 1, 60);
  return Math.min(options.maxMs, options.baseMs * factor ** exp);
}

interface Entry {
  failures: number;
  notBefore: number;
}

/**
 * Exponential, capped backoff kept per key (a resource key, or `run` for the whole run). Times
 * are passed in, so it reads no clock; the caller owns time.
 */
export class BackoffTracker {
  readonly #options: BackoffOptions;
  readonly #entries = new Map<string, Entry>();

  constructor(options: BackoffOptions) {
    if (!(options.baseMs > 0) || !(options.maxMs >= options.baseMs)) {
      throw new TypeError(
        `backoff needs 0 < baseMs <= maxMs, got baseMs=${options.baseMs} maxMs=${options.maxMs}`,
      );
    }
    this.#options = options;
  }

  /** Records a failure of `key` at `now`; returns the delay before it should be tried again. */
  fail(key: string, now: number): number {
    const failures = (this.#entries.get(key)?.failures ?? 0) + 1;
    const delay = backoffDelay(failures, this.#options);
    this.#entries.set(key, { failures, notBefore: now + delay });
    return delay;
  }

  /** Forgets the failures of `key` (it succeeded). */
  succeed(key: string): void {
    this.#entries.delete(key);
  }

  /** Consecutive failures of `key` so far (0 when none). */
  failures(key: string): number {
    return this.#entries.get(key)?.failures ?? 0;
  }

  /** Milliseconds from `now` until `key` may be tried again; 0 when it may be tried now. */
  remaining(key: string, now: number): number {
    const e = this.#entries.get(key);
    return e ? Math.max(0, e.notBefore - now) : 0;
  }

  /** The keys still waiting at `now` (excluding `run`-style keys is the caller's business). */
  waiting(now: number): string[] {
    return [...this.#entries].filter(([, e]) => e.notBefore > now).map(([k]) => k);
  }
}
