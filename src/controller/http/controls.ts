import { randomUUID } from 'node:crypto';
import type { Logger } from '../../core/logger.js';
import type { Plan } from '../../model/plan.js';
import type { StateStore } from '../../state/types.js';
import type { ReconcileRun } from '../engine/ports.js';
import type { ControlScope, Elsewhere } from '../leadership/elsewhere.js';
import type { BackoffTracker } from '../loop/backoff.js';
import type { ControllerLoop } from '../loop/loop.js';
import type { StoredRun } from '../status/history.js';
import type { IntentBook } from '../status/intent.js';
import type { ControllerMetrics } from '../status/metrics.js';
import type { ControllerStatus, StepMemory } from '../status/status.js';

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
}

/**
 * The controller's day-2 controls behind the control API and `platctl ctl`: run now, suspend and
 * resume (kept in the state store, across restarts and failovers), approve a held prune, forget a
 * resource's backoff, the plan the controller would run now, the run history. Every change is
 * logged. The verbs that change something act only where {@link elsewhere} says this replica
 * may; callers ask it first (the control API answers 503 naming the leader).
 */
export class ControllerControls {
  readonly #d: ControlDeps;

  constructor(deps: ControlDeps) {
    this.#d = deps;
  }

  get status(): ControllerStatus {
    return this.#d.status;
  }

  /** See {@link ControlDeps.elsewhere}. */
  elsewhere(scope: ControlScope): Promise<Elsewhere | undefined> {
    return this.#d.elsewhere(scope);
  }

  /** See {@link ControlDeps.pruneElsewhere}. */
  async pruneElsewhere(runId: string): Promise<Elsewhere | undefined> {
    return this.#d.pruneElsewhere?.(runId);
  }

  /** Runs now; `withSource` fetches first, otherwise the revision last fetched is reconciled. */
  reconcile(withSource: boolean): void {
    this.#d.loop.trigger('control API', 'manual', { withSource });
  }

  /**
   * Makes no change from now on (the running step finishes), on every replica (the state store
   * keeps it; each run reads it); returns the suspended state. Rejects `locked` when this replica
   * lost the lease meanwhile (nothing changed).
   */
  async suspend(): Promise<boolean> {
    await this.#d.intent.set({ suspended: true });
    this.#d.status.suspended = true;
    this.#d.metrics.suspended(true);
    this.#d.logger.info({ event: 'suspended' }, 'suspended through the control API');
    return true;
  }

  /** Lifts a suspension made through the API and runs now; `--suspend` stays in force. */
  async resume(): Promise<boolean> {
    await this.#d.intent.set({ suspended: false });
    this.#d.status.suspended = this.#d.suspendFlag;
    this.#d.metrics.suspended(this.#d.suspendFlag);
    this.#d.logger.info({ event: 'resumed' }, 'resumed through the control API');
    this.#d.loop.trigger('resumed', 'manual');
    return this.#d.status.suspended;
  }

  /**
   * Approves the prune that run `runId` held back over the limit: the next run deletes exactly
   * those resources, and starts at once. The approval is kept in the state store until a run
   * succeeds. False (nothing approved) when `runId` is not the run whose held prune is current.
   */
  async approvePrune(runId: string): Promise<boolean> {
    const blocked = this.#d.status.blockedPrune;
    if (!blocked || blocked.runId !== runId) return false;
    await this.#d.intent.set({ approvedDeletes: [...blocked.keys] });
    await this.#d.persist();
    this.#d.logger.info(
      { event: 'prune-approved', runId, count: blocked.keys.length },
      'prune over the limit approved',
    );
    this.#d.loop.trigger('prune approved');
    return true;
  }

  /** Forgets the failures of `key` so the next run tries it again; false when it is unknown. */
  resetBackoff(key: string): boolean {
    const known =
      this.#d.backoff.failures(key) > 0 || this.#d.status.conditions.some((c) => c.key === key);
    if (!known) return false;
    this.#d.backoff.succeed(key);
    delete this.#d.status.backoff[key];
    this.#d.logger.info({ event: 'backoff-reset', resource: key }, 'backoff reset');
    return true;
  }

  /**
   * The plan the controller would run now on its current desired revision (reads the platform,
   * changes nothing); undefined before any revision validated.
   */
  async plan(signal: AbortSignal): Promise<Plan | undefined> {
    const target = this.#d.memory.lastGood;
    if (!target) return undefined;
    const report = await this.#d.run(
      {
        runId: randomUUID(),
        dir: target.dir,
        revision: target.revision,
        mode: 'plan',
        prune: this.#d.prune,
        selfHeal: this.#d.selfHeal,
        skipKeys: [],
        approvedDeletes: this.#d.memory.approvedDeletes ?? [],
      },
      signal,
    );
    return report.plan;
  }

  /** The newest `limit` runs, newest first (they survive restarts). */
  async runs(limit: number): Promise<StoredRun[]> {
    return (await this.#d.state.runs(limit)) as unknown as StoredRun[];
  }

  /** The manifest last applied for `key`: what git declares for it once applied. */
  async desired(key: string): Promise<unknown> {
    return (await this.#d.state.lastApplied()).get(key);
  }

  /** See {@link ControllerLoop.onRun}. */
  onRun(listener: (run: StoredRun) => void): () => void {
    return this.#d.loop.onRun(listener);
  }
}
