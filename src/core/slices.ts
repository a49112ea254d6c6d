/**
 * Long synchronous work cut into slices, so that timers and I/O get the event loop in between: a
 * controller planning 100,000 resources in one stretch of 15 s missed its lease's renewal, which
 * a timer on the same loop sends.
 *
 * A {@link Steps} computation is a generator that yields (nothing) between units of work and
 * returns its result. It reads no clock and decides nothing about time, so it is as pure as its
 * body; whoever runs it decides how: {@link runSteps} at once, as a plain function call, or
 * {@link Slicer.run} giving the event loop a turn each time a slice has lasted long enough. Both
 * give the same result.
 */
export type Steps<T> = Generator<void, T, undefined>;

/** Runs `steps` to the end at once and returns its result (no I/O of its own). */
export function runSteps<T>(steps: Steps<T>): T {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/** Gives the event loop a turn: resolves after the timers and I/O already due have run. */
export type Turn = () => Promise<void>;

/** A turn of the event loop (a `setImmediate`). */
export const nextTurn: Turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** How {@link Slicer} measures and yields. */
export interface SliceOptions {
  /** Milliseconds from any origin (a monotonic source in production: `performance.now`). */
  readonly now: () => number;
  /** How long a slice may last before the event loop gets a turn. @default 20 */
  readonly sliceMs?: number;
  /** How a turn is given. @default a `setImmediate` */
  readonly turn?: Turn;
}

/**
 * Measures how long the caller has held the event loop and gives it a turn once a slice is over.
 * One slicer serves a whole run, so time spent between two sliced stages counts toward the slice.
 */
export class Slicer {
  readonly #now: () => number;
  readonly #sliceMs: number;
  readonly #turn: Turn;
  #since: number;

  constructor(options: SliceOptions) {
    const sliceMs = options.sliceMs ?? 20;
    if (!(sliceMs > 0)) throw new TypeError(`sliceMs must be positive, got ${String(sliceMs)}`);
    this.#now = options.now;
    this.#sliceMs = sliceMs;
    this.#turn = options.turn ?? nextTurn;
    this.#since = options.now();
  }

  /**
   * A turn of the event loop when the current slice is over, else undefined: in a hot loop,
   * `const t = slicer.pause(); if (t) await t;` costs a clock read, not a promise, per item.
   */
  pause(): Promise<void> | undefined {
    const now = this.#now();
    // a clock stepped backwards starts a new slice rather than never ending this one
    if (now >= this.#since && now - this.#since < this.#sliceMs) return undefined;
    return this.#turn().then(() => {
      this.#since = this.#now();
    });
  }

  /** Runs `steps` to the end, giving the event loop a turn whenever a slice is over. */
  async run<T>(steps: Steps<T>): Promise<T> {
    for (;;) {
      const r = steps.next();
      if (r.done) return r.value;
      const turn = this.pause();
      if (turn) await turn;
    }
  }
}
