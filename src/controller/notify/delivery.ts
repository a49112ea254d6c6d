import type { Clock } from '../../core/clock.js';

/**
 * How one attempt went. `reason` names the failure (`HTTP 503`, `network`), never a URL;
 * `retryAfterMs` is the wait the receiver asked for (`Retry-After`), when it asked.
 */
export type SendOutcome =
  | { readonly ok: true }
  | {
      readonly ok: false;
      readonly retryable: boolean;
      readonly reason: string;
      readonly retryAfterMs?: number;
    };

/** What became of one queued item, as metrics count it. */
export type DeliveryOutcome = 'sent' | 'failed' | 'dropped';

export interface DeliveryOptions {
  /** Items waiting at most; beyond it the oldest waiting one is dropped. @default 100 */
  readonly maxQueued?: number;
  /** Attempts of one item on retryable failures (5xx, 429, network), the first included. @default 4 */
  readonly maxAttempts?: number;
  /** The first retry's delay, doubled each retry. @default 2000 */
  readonly retryBaseMs?: number;
  /** The longest wait between attempts, also of an honoured `Retry-After`. @default 60000 */
  readonly retryMaxMs?: number;
  /** Sends at once before the rate applies. @default 5 */
  readonly burst?: number;
  /** Sends a minute after the burst. @default 30 */
  readonly perMinute?: number;
}

export interface DeliveryDeps<T> {
  /** One attempt (I/O); must not throw (a throw counts as a retryable `error`). */
  send(item: T, signal: AbortSignal): Promise<SendOutcome>;
  readonly clock: Clock;
  /** Called once per item with its fate (metrics, logs). */
  onOutcome(outcome: DeliveryOutcome, item: T, detail: { reason?: string; attempts: number }): void;
}

/**
 * One receiver's delivery queue, apart from the reconcile loop: {@link push} returns at once, a
 * single worker sends in order, rate-limited by a token bucket, retrying retryable failures with
 * doubling delays (or the receiver's `Retry-After` when longer, up to `retryMaxMs`), never a 4xx. Memory is bounded by `maxQueued`. {@link close} waits for the
 * queue to drain up to a deadline, then drops the rest.
 */
export class DeliveryQueue<T> {
  readonly #deps: DeliveryDeps<T>;
  readonly #o: Required<DeliveryOptions>;
  readonly #bucket: TokenBucket;
  readonly #abort = new AbortController();
  #items: T[] = [];
  #worker: Promise<void> | undefined;
  #closed = false;

  constructor(deps: DeliveryDeps<T>, options: DeliveryOptions = {}) {
    this.#deps = deps;
    this.#o = {
      maxQueued: options.maxQueued ?? 100,
      maxAttempts: options.maxAttempts ?? 4,
      retryBaseMs: options.retryBaseMs ?? 2_000,
      retryMaxMs: options.retryMaxMs ?? 60_000,
      burst: options.burst ?? 5,
      perMinute: options.perMinute ?? 30,
    };
    this.#bucket = new TokenBucket(this.#o);
  }

  /** Items waiting (not the one being sent). */
  get size(): number {
    return this.#items.length;
  }

  /** Queues `item` and returns at once; drops the oldest waiting item when full. */
  push(item: T): void {
    if (this.#closed) {
      this.#deps.onOutcome('dropped', item, { attempts: 0 });
      return;
    }
    this.#items.push(item);
    while (this.#items.length > this.#o.maxQueued) {
      this.#deps.onOutcome('dropped', this.#items.shift() as T, { attempts: 0 });
    }
    this.#worker ??= this.#work().finally(() => {
      this.#worker = undefined;
    });
  }

  /** Resolves once nothing is waiting or being sent. */
  async idle(): Promise<void> {
    while (this.#worker) await this.#worker;
  }

  /** Accepts nothing more; waits up to `graceMs` for the queue to drain, then drops the rest. */
  async close(graceMs: number): Promise<void> {
    this.#closed = true;
    const grace = new AbortController();
    const timer = this.#deps.clock.sleep(graceMs, grace.signal).then(
      () => this.#abort.abort(new Error('notifications closing')),
      () => {},
    );
    await this.idle();
    grace.abort();
    await timer;
  }

  async #work(): Promise<void> {
    const signal = this.#abort.signal;
    for (;;) {
      const item = this.#items.shift();
      if (item === undefined) return;
      let attempts = 0;
      try {
        let last: SendOutcome;
        for (;;) {
          attempts++;
          const wait = this.#bucket.take(this.#deps.clock.now());
          if (wait > 0) await this.#deps.clock.sleep(wait, signal);
          if (signal.aborted) throw signal.reason;
          last = await this.#deps
            .send(item, signal)
            .catch((): SendOutcome => ({ ok: false, retryable: true, reason: 'error' }));
          if (signal.aborted) throw signal.reason;
          if (last.ok || !last.retryable || attempts >= this.#o.maxAttempts) break;
          // at least what the receiver asked for (a 429's Retry-After), never past the cap
          const delay = Math.min(
            this.#o.retryMaxMs,
            Math.max(
              retryDelay(attempts, this.#o.retryBaseMs, this.#o.retryMaxMs),
              last.retryAfterMs ?? 0,
            ),
          );
          await this.#deps.clock.sleep(delay, signal);
        }
        if (last.ok) this.#deps.onOutcome('sent', item, { attempts });
        else this.#deps.onOutcome('failed', item, { reason: last.reason, attempts });
      } catch {
        // closing: this item and every waiting one are dropped
        this.#deps.onOutcome('dropped', item, { reason: 'closing', attempts });
        for (const rest of this.#items.splice(0)) {
          this.#deps.onOutcome('dropped', rest, { reason: 'closing', attempts: 0 });
        }
      }
    }
  }
}

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
function retryDelay(attempt: number, baseMs: number, maxMs: number): number {
  return Math.min(maxMs, baseMs * 2 ** Math.max(0, attempt - 1));
}
