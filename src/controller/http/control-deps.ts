import type { Logger } from '../../core/logger.js';
import type { LoadPort } from '../../reconcile/run.js';
import type { StateStore } from '../../state/types.js';
import type { ObserveOne, ReconcileRun } from '../engine/ports.js';
import type { ControlScope, Elsewhere } from '../leadership/elsewhere.js';
import type { BackoffTracker } from '../loop/backoff.js';
import type { ControllerLoop } from '../loop/loop.js';
import type { IntentBook } from '../status/intent.js';
import type { ControllerMetrics } from '../status/metrics.js';
import type { ControllerStatus, StepMemory } from '../status/status.js';

// What the controller's controls (controls.ts) act on and answer with, apart from the verbs.

/** A resource's manifest as written in git: its file (relative to the source) and line. */
export interface DesiredSource {
  readonly file: string;
  readonly line: number;
  /** The YAML document as written, secret-named values masked. */
  readonly yaml: string;
}

/** What the control surface acts on; all shared with the running loop. */
export interface ControlDeps {
  readonly status: ControllerStatus;
  readonly memory: StepMemory;
  readonly backoff: BackoffTracker;
  readonly loop: ControllerLoop;
  readonly run: ReconcileRun;
  readonly state: Pick<StateStore, 'runs' | 'lastApplied'>;
  readonly logger: Logger;
  /** The suspended gauge follows suspend/resume at once, not at the next run. */
  readonly metrics: Pick<ControllerMetrics, 'suspended'>;
  /** `--suspend`: resume cannot lift it. */
  readonly suspendFlag: boolean;
  readonly selfHeal: boolean;
  readonly prune: boolean;
  /** What people asked (suspension, approvals), kept in the state store. */
  readonly intent: Pick<IntentBook, 'set'>;
  /**
   * Undefined when this replica may act on `scope` now; otherwise who may (I/O: a standby may
   * ask the store who leads). A standby acts on nothing: it would act beside the leader.
   */
  elsewhere(scope: ControlScope): Promise<Elsewhere | undefined>;
  /** Which other replica holds run `runId`'s prune (sharded replicas); none when undefined. */
  readonly pruneElsewhere?: (runId: string) => Promise<Elsewhere | undefined>;
  /** Saves status where a restart finds it (I/O). */
  persist(): Promise<void>;
  /** The engine's manifests stage (each revision loaded once); undefined: no desired source. */
  readonly load?: LoadPort;
  /** Reads one resource from the platform now; undefined: no live documents. */
  readonly observe?: ObserveOne;
  /** Reads a manifest file's text (I/O). @default readFile as UTF-8 */
  readonly readText?: (file: string) => Promise<string>;
}
