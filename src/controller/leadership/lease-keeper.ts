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

/**
 * The loop's side of the state store's lease: asks for it without ever throwing (a store error
 * counts as not holding it, logged and retried), says who holds it, and keeps it between steps
 * with a timer that calls `lost` when a renewal fails. Does I/O only through the port.
 */
export class LeaseKeeper {
  readonly #lease: LeasePort;
  readonly #logger: Logger;
  #keepAlive: NodeJS.Timeout | undefined;

  constructor(lease: LeasePort, logger: Logger) {
    this.#lease = lease;
    this.#logger = logger;
  }

  /** Takes or keeps the lease; false on a store error. */
  async tryAcquire(): Promise<boolean> {
    try {
      return await this.#lease.tryAcquire();
    } catch (err) {
      this.#logger.error({ event: 'lease-error' }, String(err));
      return false;
    }
  }

  /** Who holds the lease, for people; a store error reads as unknown. */
  async holder(): Promise<string | undefined> {
    try {
      return await this.#lease.holder();
    } catch (err) {
      this.#logger.error({ event: 'lease-error' }, String(err));
      return undefined;
    }
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
