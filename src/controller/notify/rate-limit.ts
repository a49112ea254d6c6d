/**
 * A token bucket on an injected clock: `burst` sends at once, then `perMinute` a minute. Taking
 * a token never fails; it answers how long to wait for it (the token is reserved, so callers
 * queue up behind each other). Pure apart from its own state; reads no clock itself.
 */
export class TokenBucket {
  readonly #burst: number;
  readonly #perMs: number;
  #tokens: number;
  #last: number | undefined;

  constructor(options: { readonly burst: number; readonly perMinute: number }) {
    if (!(options.burst >= 1))
      throw new TypeError(`burst must be at least 1, got ${options.burst}`);
    if (!(options.perMinute > 0)) {
      throw new TypeError(`perMinute must be positive, got ${options.perMinute}`);
    }
    this.#burst = options.burst;
    this.#perMs = options.perMinute / 60_000;
    this.#tokens = options.burst;
  }

  /** Takes one token at `nowMs`; returns the milliseconds to wait before using it (0: now). */
  take(nowMs: number): number {
    if (this.#last !== undefined) {
      this.#tokens = Math.min(this.#burst, this.#tokens + (nowMs - this.#last) * this.#perMs);
    }
    this.#last = nowMs;
    this.#tokens -= 1;
    return this.#tokens >= 0 ? 0 : Math.ceil(-this.#tokens / this.#perMs);
  }
}

/** The delay before retry number `attempt` (1-based): doubling from `baseMs`, capped. Pure. */
export function retryDelay(attempt: number, baseMs: number, maxMs: number): number {
  return Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
}
