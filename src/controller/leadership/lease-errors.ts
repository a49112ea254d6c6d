import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';

/** How much later than a poll interval a failing store is asked again, at most. */
const MAX_BACKOFF_POLLS = 8;

/**
 * How the lease's calls to the state store have been going: errors in a row, the retry delay
 * they call for, and one log line per change of state — `lease-error` when the store starts
 * failing, `lease-recovered` when it answers again — never one per attempt (a database down
 * for a minute is two lines, not thousands). Pure apart from logging.
 */
export class LeaseErrors {
  readonly #logger: Logger;
  readonly #random: () => number;
  /** Store errors in a row; 0 while it answers. */
  #failures = 0;

  constructor(logger: Logger, random: () => number = Math.random) {
    this.#logger = logger;
    this.#random = random;
  }

  /** True while the store fails to answer (the last call was an error). */
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

  /** A call failed. */
  failed(err: unknown): void {
    if (this.#failures++ === 0) {
      this.#logger.error(
        { event: 'lease-error' },
        `the state store does not answer the lease (retried with backoff; logged again when it answers): ${String(err)}`,
      );
    }
  }

  /** A call was answered. */
  answered(): void {
    if (this.#failures === 0) return;
    this.#logger.info(
      { event: 'lease-recovered', failures: this.#failures },
      'the state store answers the lease again',
    );
    this.#failures = 0;
  }
}

/**
 * `call`'s answer, or false once `limitMs` of `clock` passed without one (the call is left to
 * finish on its own); `call` itself when there is no limit. For a store that may not answer.
 */
export async function answeredWithin(
  call: Promise<boolean>,
  limitMs: number | undefined,
  clock: Clock,
): Promise<boolean> {
  if (limitMs === undefined) return call;
  const timer = new AbortController();
  const late = clock.sleep(limitMs, timer.signal).then(
    () => false,
    () => false,
  );
  try {
    return await Promise.race([call, late]);
  } finally {
    timer.abort();
  }
}
