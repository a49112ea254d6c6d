import { nextTurn } from '../../core/slices.js';
import { LeaseKeeper } from '../leadership/lease-keeper.js';
import type { RunTrigger, StoredRun } from '../status/history.js';
import { BackoffTracker } from './backoff.js';
import type { LoopOptions, LoopPorts, StepOutcome, StepPorts } from './ports.js';
import { reconcileStep } from './reconcile-step.js';
import { runOf } from './run-record.js';
import { armShutdownTimeout, sleepBeating } from './waits.js';

/**
 * The controller loop: wins the state store's lease (or stands by), then repeats a level-based
 * {@link reconcileStep} every interval, or at once when {@link trigger}ed (webhook, file watch).
 * {@link stop} starts no new action, lets the running step finish and be recorded, and releases
 * the lease.
 */
export class ControllerLoop {
  readonly #options: LoopOptions;
  readonly #ports: LoopPorts;
  readonly #stepPorts: StepPorts;
  readonly #stopping = new AbortController();
  /** Aborted when the shutdown timeout passes: cuts waits and requests in flight. */
  readonly #hardStop = new AbortController();
  /** Aborted when the loop has ended: cancels the shutdown timer. */
  readonly #ended = new AbortController();
  #wake = new AbortController();
  #triggered = false;
  /** What the next step is run for. */
  #nextTrigger: RunTrigger = 'startup';
  #runListeners: ((run: StoredRun) => void)[] = [];
  #running: Promise<void> | undefined;
  readonly #lease: LeaseKeeper;
  /** Resolves after each finished step; tests and `--once`-style callers wait on it. */
  #stepListeners: ((o: StepOutcome) => void)[] = [];

  constructor(options: LoopOptions, ports: LoopPorts) {
    if (!(options.intervalMs > 0)) {
      throw new TypeError(`intervalMs must be positive, got ${options.intervalMs}`);
    }
    this.#options = options;
    this.#ports = ports;
    this.#lease = new LeaseKeeper(ports.lease, ports.logger, {
      clock: ports.clock,
      renewDeadlineMs: options.renewDeadlineMs,
      elapsed: ports.elapsed,
    });
    this.#stepPorts = {
      ...ports,
      backoff: ports.backoff ?? new BackoffTracker(options.backoff),
      memory: ports.memory ?? {},
      // asked before every platform write: no round trip, the renew deadline held in memory
      canWrite: () => this.#lease.leads(),
    };
  }

  /** `/readyz`: see {@link leads}. */
  get ready(): boolean {
    return this.leads;
  }

  /** True while this replica leads (the lease held, renewed within its deadline). No I/O. */
  get leads(): boolean {
    return this.#ports.status.role === 'leader' && this.#lease.leads();
  }

  /** Unhealthy while cut off from the state store after leading (see {@link LeaseKeeper.health}). */
  leaseHealth(): { readonly ok: boolean; readonly reason?: string } {
    return this.#lease.health();
  }

  /**
   * Asks for a fetch and reconcile now; a trigger during a step runs one more step after it.
   * `withSource: false` reconciles the revision last fetched without fetching (when there is one).
   */
  trigger(
    reason: string,
    kind: RunTrigger = 'manual',
    options: { readonly withSource?: boolean } = {},
  ): void {
    if (this.#stopping.signal.aborted) return;
    this.#ports.logger.info({ event: 'trigger', reason, trigger: kind }, 'reconcile requested');
    if (options.withSource === false) this.#stepPorts.memory.skipFetch = true;
    this.#nextTrigger = kind;
    this.#triggered = true;
    this.#wake.abort();
  }

  /** Calls `listener` with each run's history entry once it is saved; returns the remover. */
  onRun(listener: (run: StoredRun) => void): () => void {
    this.#runListeners.push(listener);
    return () => {
      this.#runListeners = this.#runListeners.filter((l) => l !== listener);
    };
  }

  /** Calls `listener` after every finished step; returns a function removing it. */
  onStep(listener: (o: StepOutcome) => void): () => void {
    this.#stepListeners.push(listener);
    return () => {
      this.#stepListeners = this.#stepListeners.filter((l) => l !== listener);
    };
  }

  /** Starts the loop in the background (idempotent); resolves when it has ended. */
  start(): Promise<void> {
    this.#running ??= this.#loop();
    return this.#running;
  }

  /** Graceful stop: no new action, the running step finishes and is recorded, lease released. */
  async stop(): Promise<void> {
    if (!this.#stopping.signal.aborted) {
      this.#ports.logger.info({ event: 'stopping' }, 'stopping: no new action will start');
      this.#ports.status.role = 'stopping';
      this.#stopping.abort(new Error('controller stopping'));
      this.#wake.abort();
      armShutdownTimeout(
        this.#options.shutdownTimeoutMs,
        this.#ports,
        this.#ended.signal,
        this.#hardStop,
      );
    }
    await this.#running;
  }

  async #loop(): Promise<void> {
    const { status, metrics, logger } = this.#ports;
    const lease = this.#lease;
    const pollMs = this.#options.leasePollMs ?? 5_000;
    const stop = this.#stopping.signal;
    try {
      while (!stop.aborted) {
        this.#ports.heartbeat?.beat('lease');
        // Leadership: act only while holding the state store's lease; otherwise stand by.
        if (!(await lease.tryAcquire())) {
          // a store that did not answer cannot say who holds it either
          const holder = lease.failing ? undefined : await lease.holder();
          if (status.role !== 'standby') {
            logger.info({ event: 'standby', holder }, 'standing by');
          }
          status.role = 'standby';
          status.leaseHolder = holder;
          metrics.leader(false);
          lease.stopKeepAlive();
          // a trigger is work for the leader, not a reason for a standby to poll sooner
          this.#triggered = false;
          await this.#sleep(lease.retryDelay(pollMs), stop);
          continue;
        }
        if (status.role !== 'leader') {
          logger.info({ event: 'leader' }, 'leading');
          await this.#takeUp();
        }
        status.role = 'leader';
        status.leaseHolder = undefined;
        metrics.leader(true);
        // keep the lease while sleeping between steps; losing it (a failed renewal, an ended
        // session, a missed deadline) says so at once, and wakes the loop into standby
        lease.keepAlive(pollMs, () => {
          if (status.role === 'leader') status.role = 'standby';
          metrics.leader(false);
          this.#wake.abort();
        });
        const requeueAfterMs = await this.#step();
        if (this.#triggered) continue;
        this.#ports.collect?.();
        await this.#sleep(requeueAfterMs);
      }
    } finally {
      this.#ended.abort();
      metrics.leader(false);
      await lease.release();
      status.role = 'stopping';
      logger.info({ event: 'stopped' }, 'stopped; lease released');
    }
  }

  /**
   * One step, recorded and passed to the step listeners; resolves with how long to wait before
   * the next. The engine's report (every resource and the plan: ≈ 45 MB at 100,000) is not kept
   * past the step itself unless a listener waits for it: the status save that follows held it
   * at the heap's limit.
   */
  async #step(): Promise<number> {
    this.#triggered = false;
    const trigger = this.#nextTrigger;
    this.#nextTrigger = 'interval';
    const { run, requeueAfterMs, told } = await this.#reconcile(trigger);
    // saving status is long at 100,000 resources: timers (the lease's renewal) go first
    await nextTurn();
    await this.#recordRun(run);
    for (const l of this.#stepListeners) l(told);
    return requeueAfterMs;
  }

  /** The step, its history entry, and what its listeners get (the report only if one listens). */
  async #reconcile(trigger: RunTrigger) {
    const outcome = await reconcileStep(
      this.#options,
      this.#stepPorts,
      this.#stopping.signal,
      this.#hardStop.signal,
    );
    this.#ports.observe?.(outcome);
    const run = runOf(outcome, trigger, this.#ports.status.lastError);
    const { report: _report, ...slim } = outcome;
    const told: StepOutcome = this.#stepListeners.length > 0 ? outcome : slim;
    return { run, requeueAfterMs: outcome.requeueAfterMs, told };
  }

  /** Takes up what the previous leader saved (a failure is logged: the first run rebuilds it). */
  async #takeUp(): Promise<void> {
    try {
      await this.#ports.onLead?.();
    } catch (err) {
      this.#ports.logger.warn({ event: 'status-restore-error' }, String(err));
    }
  }

  /** Saves status and the run (a failure to save is logged, never ends the loop). */
  async #recordRun(run: StoredRun): Promise<void> {
    try {
      await this.#ports.persist?.(run);
    } catch (err) {
      this.#ports.logger.error({ event: 'status-save-error' }, String(err));
    }
    for (const l of this.#runListeners) l(run);
  }

  /**
   * Sleeps on the injected clock until `ms` pass, a trigger arrives, or stop is asked (with
   * `only`: until `ms` pass or `only` aborts, whatever is triggered), beating the watchdog.
   */
  async #sleep(ms: number, only?: AbortSignal): Promise<void> {
    if (this.#stopping.signal.aborted) return;
    this.#wake = new AbortController();
    if (this.#triggered && !only) return;
    await sleepBeating(this.#ports.clock, this.#ports.heartbeat, ms, only ?? this.#wake.signal);
  }
}
