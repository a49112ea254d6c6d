import type { Logger } from '../../core/logger.js';
import { answeredWithin, LeaseErrors } from './lease-errors.js';
import type { KeeperOptions, LeasePort } from './lease-port.js';

/**
 * The loop's side of the state store's lease. It asks for the lease without ever throwing (a
 * store error counts as not holding it, retried ever later and logged once per change of state:
 * {@link LeaseErrors}). It holds a **renew deadline** in
 * memory: this replica {@link leads} only while its last confirmed renewal (a round trip to the
 * store) is younger than `renewDeadlineMs` and its lock session is not known to have ended, so
 * {@link leads} is a cheap check the engine makes before each platform write. Between steps it
 * renews every poll ({@link keepAlive}); a renewal that fails, a session that ends, or a deadline
 * that passes while a renewal hangs ends leadership at once (`lost` is called). Does I/O only
 * through the port.
 */
export class LeaseKeeper {
  readonly #lease: LeasePort;
  readonly #logger: Logger;
  readonly #o: KeeperOptions;
  readonly #errors: LeaseErrors;
  #keeping: AbortController | undefined;
  #onLost: ((reason: string) => void) | undefined;
  /** Clock time at the start of the last round trip that proved the lease held; undefined: not held. */
  #confirmedAt: number | undefined;
  #lostSignal: AbortSignal | undefined;
  #renewing = false;
  /** Leadership ended by a missed deadline, and the store has not answered since. */
  #cutOff: string | undefined;

  constructor(lease: LeasePort, logger: Logger, options: KeeperOptions) {
    this.#lease = lease;
    this.#logger = logger;
    this.#o = options;
    this.#errors = new LeaseErrors(logger, options.random);
  }

  /** True while the store fails to answer (the last attempt was an error). */
  get failing(): boolean {
    return this.#errors.failing;
  }

  /**
   * True while this replica holds the lease, proven by a round trip younger than the renew
   * deadline, on a session not known to have ended. No I/O: checked before every write.
   */
  leads(): boolean {
    if (this.#confirmedAt === undefined || this.#lostSignal?.aborted) return false;
    const limit = this.#o.renewDeadlineMs;
    return limit === undefined || this.#now() - this.#confirmedAt < limit;
  }

  /**
   * Healthy unless leadership ended because the store stopped answering (the renew deadline
   * passed) and it has not answered since: a process cut off from its database, which a restart
   * reconnects. A store that answers with errors, or a standby, is healthy.
   */
  health(): { readonly ok: boolean; readonly reason?: string } {
    return this.#cutOff ? { ok: false, reason: this.#cutOff } : { ok: true };
  }

  /** How long to wait before the next attempt (see {@link LeaseErrors.retryDelay}). */
  retryDelay(pollMs: number): number {
    return this.#errors.retryDelay(pollMs);
  }

  /**
   * Takes or keeps the lease (false on a store error). A lease newly held, or held again after
   * its deadline passed, is proven first by a renewal bounded by the deadline.
   */
  async tryAcquire(): Promise<boolean> {
    const start = this.#now();
    let held: boolean;
    try {
      held = await this.#lease.tryAcquire();
      this.#answered();
    } catch (err) {
      this.#failed(err);
      held = false;
    }
    if (!held) {
      this.#confirmedAt = undefined;
      return false;
    }
    if (this.leads()) return true;
    if (this.#lease.renew && !(await this.#proven())) {
      this.#lease.abandon?.();
      return false;
    }
    this.#confirmedAt = start;
    this.#lostSignal = this.#lease.lost?.();
    this.#lostSignal?.addEventListener('abort', () => this.#lose('its database session ended'), {
      once: true,
    });
    return true;
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

  /**
   * Renews every `pollMs` while leading (idempotent), on the keeper's clock; `lost` runs once,
   * with why, when leadership ends (a renewal failed, the session ended, the deadline passed).
   */
  keepAlive(pollMs: number, lost: (reason: string) => void): void {
    this.#onLost = lost;
    if (this.#keeping) return;
    const keeping = new AbortController();
    this.#keeping = keeping;
    const { clock } = this.#o;
    void (async () => {
      while (!keeping.signal.aborted) {
        await clock.sleep(pollMs, keeping.signal).catch(() => {});
        if (keeping.signal.aborted) return;
        if (!this.leads() && !(await this.#renewedLate(keeping.signal))) {
          return this.#lose('the lease was not renewed before its deadline', true);
        }
        // one renewal at a time: a hung one must not stop the deadline from being checked
        if (!this.#renewing) this.#renew();
      }
    })();
  }

  /** Stops renewing (idempotent). */
  stopKeepAlive(): void {
    this.#keeping?.abort();
    this.#keeping = undefined;
  }

  /** Stops renewing and gives the lease up; a failure is logged, never thrown. */
  async release(): Promise<void> {
    this.stopKeepAlive();
    this.#confirmedAt = undefined;
    await this.#lease.release().catch((err: unknown) => {
      this.#logger.error({ event: 'lease-error' }, String(err));
    });
  }

  #renew(): void {
    const start = this.#now();
    const lease = this.#lease;
    this.#renewing = true;
    (lease.renew ? lease.renew() : lease.tryAcquire())
      .then(
        (held) => {
          this.#answered();
          if (held === false) this.#lose('another replica holds the lease');
          else if (this.#confirmedAt !== undefined) {
            this.#confirmedAt = Math.max(this.#confirmedAt, start);
          }
        },
        (err: unknown) => this.#lose(`renewing the lease failed: ${String(err)}`),
      )
      .finally(() => {
        this.#renewing = false;
      });
  }

  /**
   * After the deadline passed with no renewal unanswered, this process did not ask in time: its
   * own work held the event loop (loading 100,000 manifests, restoring their status). Nothing
   * was written meanwhile, and {@link leads} stays false until the store answers, so whether
   * another replica has taken the lease over is the store's to say: a renewal proven now (within
   * the deadline) keeps leadership, logged with how long the loop was held. A renewal still
   * unanswered means the store did not answer in time: false, leadership ends.
   */
  async #renewedLate(keeping: AbortSignal): Promise<boolean> {
    const confirmed = this.#confirmedAt;
    if (this.#renewing || confirmed === undefined || this.#lostSignal?.aborted) return false;
    const start = this.#now();
    this.#renewing = true;
    const held = await this.#proven().finally(() => {
      this.#renewing = false;
    });
    if (!held || keeping.aborted || this.#confirmedAt !== confirmed) return false;
    this.#answered();
    this.#confirmedAt = start;
    this.#logger.warn(
      { event: 'lease-renewed-late', sinceRenewalMs: Math.round(start - confirmed) },
      'the lease was renewed late (this process held its event loop past the renew deadline); still leading',
    );
    return true;
  }

  /** A renewal that answers within the deadline (I/O); false when it fails or hangs past it. */
  #proven(): Promise<boolean> {
    const lease = this.#lease;
    // without `renew`, asking for the lease again is the round trip (sharded seats)
    const renewal = (lease.renew ? lease.renew() : lease.tryAcquire()).then(
      (held) => held !== false,
      () => false,
    );
    return answeredWithin(renewal, this.#o.renewDeadlineMs, this.#o.clock);
  }

  /**
   * Leadership ends now: no write from here on, the lock let go, the loop told once. `cutOff`:
   * because the store did not answer in time (unhealthy until it answers again).
   */
  #lose(reason: string, cutOff = false): void {
    if (this.#confirmedAt === undefined) return;
    this.#confirmedAt = undefined;
    this.stopKeepAlive();
    this.#lease.abandon?.();
    if (cutOff) this.#cutOff = `cut off from the state store: ${reason}`;
    this.#logger.warn({ event: 'lease-lost', reason }, `no longer leading: ${reason}`);
    this.#onLost?.(reason);
  }

  #now(): number {
    return (this.#o.elapsed ?? (() => this.#o.clock.now()))();
  }

  #failed(err: unknown): void {
    this.#errors.failed(err);
  }

  #answered(): void {
    this.#cutOff = undefined;
    this.#errors.answered();
  }
}
