import type { Logger } from '../../core/logger.js';

/** The state store's run lease as leader election sees it. */
export interface LeasePort {
  /** Takes or keeps the lease for this replica without waiting; false when another holds it. */
  tryAcquire(): Promise<boolean>;
  /** Who holds it, for people (`pid 7 on pod-b since ...`), or undefined. */
  holder(): Promise<string | undefined>;
  /** Gives it up (idempotent). */
  release(): Promise<void>;
}

/** How much later than a poll interval a failing store is asked again, at most. */
const MAX_BACKOFF_POLLS = 8;

/**
 * The loop's side of the state store's lease: asks for it without ever throwing (a store error
 * counts as not holding it, and is retried ever later: {@link retryDelay}), says who holds it,
 * and keeps it between steps with a timer that calls `lost` when a renewal fails. A store that
 * keeps failing is logged once when it starts (`lease-error`) and once when it answers again
 * (`lease-recovered`), never per attempt. Does I/O only through the port.
 */
export class LeaseKeeper {
  readonly #lease: LeasePort;
  readonly #logger: Logger;
  readonly #random: () => number;
  #keepAlive: NodeJS.Timeout | undefined;
  /** Store errors in a row; 0 while it answers. */
  #failures = 0;

  constructor(lease: LeasePort, logger: Logger, random: () => number = Math.random) {
    this.#lease = lease;
    this.#logger = logger;
    this.#random = random;
  }

  /** True while the store fails to answer (the last attempt was an error). */
  get failing(): boolean {
    return this.#failures > 0;
  }

  /**
   * How long to wait before the next attempt: `pollMs` while the store answers; while it fails,
   * twice as long after each error up to {@link MAX_BACKOFF_POLLS} polls, with jitter (between
   * half and all of it) so replicas that lost the database together do not return in step.
   */
  retryDelay(pollMs: number): number {
    if (this.#failures === 0) return pollMs;
    const full = pollMs * Math.min(MAX_BACKOFF_POLLS, 2 ** (this.#failures - 1));
    return Math.max(1, Math.round(full * (0.5 + this.#random() / 2)));
  }

  /** Takes or keeps the lease; false on a store error. */
  async tryAcquire(): Promise<boolean> {
    try {
      const held = await this.#lease.tryAcquire();
      this.#answered();
      return held;
    } catch (err) {
      this.#failed(err);
      return false;
    }
  }

  /** Who holds the lease, for people; a store error reads as unknown. */
  async holder(): Promise<string | undefined> {
    try {
      return await this.#lease.holder();
    } catch (err) {
      this.#failed(err);
      return undefined;
    }
  }

  #failed(err: unknown): void {
    if (this.#failures++ === 0) {
      this.#logger.error(
        { event: 'lease-error' },
        `the state store does not answer the lease (retried with backoff; logged again when it answers): ${String(err)}`,
      );
    }
  }

  #answered(): void {
    if (this.#failures === 0) return;
    this.#logger.info(
      { event: 'lease-recovered', failures: this.#failures },
      'the state store answers the lease again',
    );
    this.#failures = 0;
  }

  /** Renews every `pollMs` while leading (idempotent); `lost` runs when a renewal fails. */
  keepAlive(pollMs: number, lost: () => void): void {
    if (this.#keepAlive) return;
    this.#keepAlive = setInterval(() => {
      this.#lease.tryAcquire().then(
        (held) => {
          if (!held) lost();
        },
        () => lost(),
      );
    }, pollMs);
    this.#keepAlive.unref();
  }

  /** Stops renewing (idempotent). */
  stopKeepAlive(): void {
    if (this.#keepAlive) clearInterval(this.#keepAlive);
    this.#keepAlive = undefined;
  }

  /** Stops renewing and gives the lease up; a failure is logged, never thrown. */
  async release(): Promise<void> {
    this.stopKeepAlive();
    await this.#lease.release().catch((err: unknown) => {
      this.#logger.error({ event: 'lease-error' }, String(err));
    });
  }
}
