import type { Clock } from '../../core/clock.js';
import type { Logger } from '../../core/logger.js';
import type { ReconcileRun, RunReport, ValidatePort } from '../engine/ports.js';
import type { LeasePort } from '../leadership/lease-port.js';
import type { Source } from '../sources/source.js';
import type { StoredRun } from '../status/history.js';
import type { ControllerMetrics } from '../status/metrics.js';
import type { ControllerStatus, RunResult, StepMemory } from '../status/status.js';
import type { BackoffOptions, BackoffTracker } from './backoff.js';
import type { Heartbeat } from './heartbeat.js';

// What the loop and its step are given and what a step gives back: the contract between the
// loop (loop.ts), its step (reconcile-step.ts) and the step's helpers (revisions, run-record).

/** How the loop behaves; fixed for the life of the controller. */
export interface StepOptions {
  readonly intervalMs: number;
  /** A run is aborted (no new action; running ones finish) after this long. */
  readonly runTimeoutMs: number;
  readonly selfHeal: boolean;
  readonly dryRun: boolean;
  /** `--suspend`: no change is made while set (the suspend file has the same effect). */
  readonly suspend: boolean;
  readonly prune: boolean;
  /** How soon a run with postponed work (`progressing`) runs again. @default 5000 */
  readonly progressingRequeueMs?: number;
}

/** The I/O one step uses, all injected. */
export interface StepPorts {
  readonly source: Source;
  readonly validate: ValidatePort;
  readonly run: ReconcileRun;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly metrics: ControllerMetrics;
  readonly backoff: BackoffTracker;
  readonly status: ControllerStatus;
  /** What one loop remembers between steps. */
  readonly memory: StepMemory;
  /** The loop's watchdog: beaten at each stage and by the run's own progress. */
  readonly heartbeat?: Heartbeat;
  /**
   * What people asked (a suspension, approvals), read from the state store into `memory` in each
   * step once its revision is fetched and valid, before its mode is decided (I/O); a read that
   * fails fails the step. None when undefined.
   */
  readonly intent?: { refresh(): Promise<void> };
  /**
   * True while this replica may still write to the platform (it leads, within its renew
   * deadline); asked before each action, no I/O. Always true when undefined.
   */
  readonly canWrite?: () => boolean;
}

/** What the loop does after a step: every outcome is a requeue after some time. */
export interface StepOutcome {
  readonly result: RunResult;
  readonly requeueAfterMs: number;
  readonly runId?: string;
  /** The revision reconciled, when one was. */
  readonly revision?: string;
  /** Epoch milliseconds. */
  readonly startedAt?: number;
  readonly durationMs?: number;
  /** What the engine reported, when it ran. */
  readonly report?: RunReport;
}

/** Loop settings beyond one step's. */
export interface LoopOptions extends StepOptions {
  /** Backoff after failures, per resource and per run. */
  readonly backoff: BackoffOptions;
  /** How often a standby checks the lease, and a leader keeps it. @default 5000 */
  readonly leasePollMs?: number;
  /**
   * A leader whose last renewal is older than this stops writing and says it is not ready
   * (see `leaseTiming`); undefined: no deadline.
   */
  readonly renewDeadlineMs?: number;
  /**
   * After {@link ControllerLoop.stop}, how long a running step may go on before its waits and
   * requests in flight are cut (the run recorded `interrupted`, resumed by the next run); keep it
   * below the pod's termination grace period. Undefined: never cut.
   */
  readonly shutdownTimeoutMs?: number;
}

export type LoopPorts = Omit<StepPorts, 'backoff' | 'memory'> & {
  readonly lease: LeasePort;
  /** Beaten on every pass and every slice of sleep (the step beats it too); none when undefined. */
  readonly heartbeat?: Heartbeat;
  /** Shared with the control surface; a fresh one when undefined. */
  readonly memory?: StepMemory;
  /** Shared with the control surface; a fresh one when undefined. */
  readonly backoff?: BackoffTracker;
  /**
   * Monotonic milliseconds for the lease's renew deadline (`performance.now`), which a wall
   * clock stepped backwards must not lengthen. @default the clock's `now`
   */
  readonly elapsed?: () => number;
  /** Saves status (and the run that just ended) where a restart finds them (I/O). */
  readonly persist?: (run: StoredRun | undefined) => Promise<void>;
  /**
   * Told of each step's outcome before it is saved (the notifications: what they remember of it
   * is saved with the status). Must not throw.
   */
  readonly observe?: (outcome: StepOutcome) => void;
  /**
   * Called each time this replica starts leading, before its first step (I/O): it takes up
   * what the previous leader saved (status, what the alerts remember). A failure is logged.
   */
  readonly onLead?: () => Promise<void>;
  /**
   * Collects garbage after each step, once its objects are dropped and before the loop sleeps;
   * none when undefined (see `exposedGc`).
   */
  readonly collect?: () => void;
};
