/** What `/healthz` answers: alive, or stuck and why. */
export type HealthCheck =
  | { readonly ok: true; readonly heartbeatAgeMs: number }
  | { readonly ok: false; readonly heartbeatAgeMs: number; readonly reason: string };

export interface HeartbeatOptions {
  /** A loop silent for longer than this is stuck (`/healthz` 503). */
  readonly thresholdMs: number;
  /** The clock beats are stamped with (the controller's injected clock). */
  readonly now: () => number;
  /** Called with the time of each beat (the last-heartbeat gauge). */
  readonly onBeat?: (atMs: number) => void;
}

/**
 * The controller loop's watchdog. The loop beats whenever it makes progress — each pass, each
 * slice of an idle sleep, each stage of a step, each API answer and action event of a run, each
 * poll of a wait — so a run that legitimately takes an hour (a VPC deploying) keeps beating, and
 * one stuck on a request that never answers, a hung git, or a deadlock does not. No I/O.
 */
export class Heartbeat {
  readonly #options: HeartbeatOptions;
  #last: number;
  #what = 'starting';

  constructor(options: HeartbeatOptions) {
    if (!(options.thresholdMs > 0)) {
      throw new TypeError(`thresholdMs must be positive, got ${options.thresholdMs}`);
    }
    this.#options = options;
    this.#last = options.now();
    options.onBeat?.(this.#last);
  }

  /** The longest silence that is still alive. */
  get thresholdMs(): number {
    return this.#options.thresholdMs;
  }

  /** Records progress; `what` names it for the stuck message (`fetch`, `idle`, `run`). */
  beat(what: string): void {
    this.#last = this.#options.now();
    this.#what = what;
    this.#options.onBeat?.(this.#last);
  }

  /** Alive while the last beat is no older than the threshold (reads the clock only). */
  check(): HealthCheck {
    const age = Math.max(0, this.#options.now() - this.#last);
    if (age <= this.#options.thresholdMs) return { ok: true, heartbeatAgeMs: age };
    return {
      ok: false,
      heartbeatAgeMs: age,
      reason:
        `the reconcile loop has not made progress for ${seconds(age)} ` +
        `(threshold ${seconds(this.#options.thresholdMs)}); last heartbeat: ${this.#what}`,
    };
  }
}

function seconds(ms: number): string {
  return `${Math.round(ms / 100) / 10}s`;
}
