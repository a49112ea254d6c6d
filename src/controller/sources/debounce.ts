/** A debounced function: calls collapse into one, `delayMs` after the last of them. */
export interface Debounced {
  (): void;
  /** Drops a pending call. */
  cancel(): void;
  /** Runs a pending call now (if any). */
  flush(): void;
}

/** Timer functions, injectable so tests can use fake timers or a manual scheduler. */
interface TimerPort {
  setTimeout(fn: () => void, ms: number): unknown;
  clearTimeout(handle: unknown): void;
}

const realTimers: TimerPort = {
  setTimeout: (fn, ms) => setTimeout(fn, ms),
  clearTimeout: (h) => clearTimeout(h as NodeJS.Timeout),
};

/**
 * Trailing-edge debounce: a burst of calls (an editor saving several files) runs `fn` once,
 * `delayMs` after the last call. No I/O beyond the timer.
 */
export function debounce(fn: () => void, delayMs: number, timers = realTimers): Debounced {
  let handle: unknown;
  let pending = false;
  const fire = () => {
    pending = false;
    handle = undefined;
    fn();
  };
  const d = (() => {
    if (pending) timers.clearTimeout(handle);
    pending = true;
    handle = timers.setTimeout(fire, delayMs);
  }) as Debounced;
  d.cancel = () => {
    if (pending) timers.clearTimeout(handle);
    pending = false;
    handle = undefined;
  };
  d.flush = () => {
    if (!pending) return;
    timers.clearTimeout(handle);
    fire();
  };
  return d;
}
