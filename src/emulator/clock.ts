import type { Clock } from '../core/clock.js';

/**
 * The emulator's clock: `now = start + realElapsed × speed + offset`. `advance` only ever adds to
 * the offset, so time never runs backwards. `sleep` waits real time scaled by the speed, and an
 * `advance` wakes the sleepers whose time it reached (a controller on this clock wakes at a
 * schedule's boundary a test advanced to, not at the real time the boundary would have taken).
 */
export class EmulatorClock implements Clock {
  readonly #speed: number;
  readonly #realStart: number;
  #start: number;
  #offsetMs = 0;
  /** The sleeps in progress: each checks its time again when the clock is advanced. */
  readonly #sleepers = new Set<() => void>();

  /** `start` is the emulated time at creation (ms; default the real now); `speed` defaults to 1. */
  constructor(options: { start?: number; speed?: number; offsetMs?: number } = {}) {
    const speed = options.speed ?? 1;
    if (!(speed > 0)) throw new TypeError(`clock speed must be > 0, got ${speed}`);
    this.#speed = speed;
    this.#realStart = Date.now();
    this.#start = options.start ?? this.#realStart;
    this.#offsetMs = options.offsetMs ?? 0;
  }

  // `now` and `sleep` are bound: the engine hands them around detached, as the system clock's
  readonly now = (): number =>
    Math.floor(this.#start + (Date.now() - this.#realStart) * this.#speed + this.#offsetMs);

  /** Moves the clock forward by `seconds` (must be >= 0); returns the new now. */
  advance(seconds: number): number {
    if (!(seconds >= 0)) throw new TypeError(`cannot advance the clock by ${seconds} seconds`);
    this.#offsetMs += seconds * 1000;
    for (const recheck of [...this.#sleepers]) recheck();
    return this.now();
  }

  /** The manual offset in ms (persisted so a restart keeps advanced time). */
  get offsetMs(): number {
    return this.#offsetMs;
  }

  /** Back to the real time with no offset (used by reset). */
  reset(): void {
    this.#start = Date.now() - (Date.now() - this.#realStart) * this.#speed;
    this.#offsetMs = 0;
  }

  /**
   * Resolves once this clock has moved `ms` on. Node's timers run on a monotonic clock and `now`
   * reads `Date.now()`, so a timer can fire while `Date.now()` still shows the millisecond it was
   * set in (at speed 1000, a whole second of this clock): the rest is waited for again.
   */
  readonly sleep = (ms: number, signal?: AbortSignal): Promise<void> =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const until = this.now() + ms;
      let timer: NodeJS.Timeout;
      const done = () => {
        clearTimeout(timer);
        this.#sleepers.delete(recheck);
        signal?.removeEventListener('abort', onAbort);
      };
      const onAbort = () => {
        done();
        reject(signal?.reason);
      };
      const recheck = () => {
        clearTimeout(timer);
        const rest = until - this.now();
        if (rest > 0) return wait(Math.max(rest / this.#speed, 1));
        done();
        resolve();
      };
      const wait = (left: number) => {
        timer = setTimeout(recheck, left);
      };
      this.#sleepers.add(recheck);
      wait(ms / this.#speed);
      signal?.addEventListener('abort', onAbort, { once: true });
    });
}
