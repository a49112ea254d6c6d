import PQueue, { type QueueAddOptions } from 'p-queue';
import type { Clock } from '../../core/clock.js';

/** How many requests may start in any window of `windowMs`; `cap` 0 starts none for now. */
export interface Budget {
  readonly cap: number;
  readonly windowMs: number;
}

type Task<T> = (options: { readonly signal?: AbortSignal }) => PromiseLike<T> | T;

/**
 * A limiter whose rate can change while it runs (the controller replicas' share of one `--rps`,
 * which changes as replicas join and leave): at most `concurrency` requests at once, and a
 * request starts only while fewer than `budget().cap` started in the last `budget().windowMs`
 * (a sliding window, asked afresh before every start). When the share shrinks, nothing starts
 * until the starts of the last window fall below the new cap, so the replica's rate never sums
 * old and new shares. Passes wherever the client takes a `PQueue`.
 */
export class BudgetLimiter extends PQueue {
  readonly #budget: () => Budget;
  readonly #clock: Clock;
  /** Start times, oldest first, pruned to the longest window asked for. */
  #starts: number[] = [];

  constructor(options: { budget: () => Budget; clock: Clock; concurrency?: number }) {
    super({ concurrency: options.concurrency ?? 8 });
    this.#budget = options.budget;
    this.#clock = options.clock;
  }

  override add<T>(task: Task<T>, options?: Partial<QueueAddOptions>): Promise<T> {
    return super.add(async (o) => {
      await this.#turn(o.signal);
      return task(o);
    }, options);
  }

  /** Waits (on the clock) until the budget allows one more start, and records it. */
  async #turn(signal: AbortSignal | undefined): Promise<void> {
    for (;;) {
      const { cap, windowMs } = this.#budget();
      const now = this.#clock.now();
      this.#starts = this.#starts.filter((t) => t > now - Math.max(windowMs, 10_000));
      const recent = this.#starts.filter((t) => t > now - windowMs);
      if (cap > 0 && recent.length < cap) {
        this.#starts.push(now);
        return;
      }
      // the oldest start of the window leaves it then; with no budget at all, look again soon
      const wait = cap > 0 ? recent[recent.length - cap]! + windowMs - now : 100;
      await this.#clock.sleep(Math.max(1, wait), signal);
    }
  }
}
