import { randomUUID } from 'node:crypto';
import type { Clock } from '../core/clock.js';
import { PlatctlError, redact } from '../core/errors.js';
import type { Logger } from '../core/logger.js';
import type { BackoffTracker } from './backoff.js';
import type { ControllerMetrics } from './metrics.js';
import type { ReconcileRun, ValidatePort } from './ports.js';
import { record, withTimeout } from './run-record.js';
import type { Snapshot, Source } from './source.js';
import type { ControllerStatus, RunResult } from './status.js';

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
}

/** Kept by the loop between steps. */
export interface StepMemory {
  /** The last snapshot that validated: the desired state while newer revisions are rejected. */
  lastGood?: Snapshot;
  /** Prune deletions a person approved past the limit; kept until a run succeeds. */
  approvedDeletes?: readonly string[];
}

/** What the loop does after a step: every outcome is a requeue after some time. */
export interface StepOutcome {
  readonly result: RunResult;
  readonly requeueAfterMs: number;
}

const RUN_KEY = '<run>';
const MAX_REJECTED = 5;

/**
 * One level-based reconcile: fetch → choose the desired revision → validate → run → record.
 * Idempotent: running it twice with nothing changed makes no change. Never throws; failures are
 * recorded in status and become a backed-off requeue.
 */
export async function reconcileStep(
  options: StepOptions,
  ports: StepPorts,
  signal: AbortSignal,
): Promise<StepOutcome> {
  const { status, logger, clock, backoff } = ports;
  const started = clock.now();
  const runId = randomUUID();
  let result: RunResult = 'failed';
  let revision: string | undefined;
  try {
    // 1. Fetch: the newest revision, as an immutable snapshot.
    let snap: Snapshot;
    try {
      snap = await ports.source.fetch(signal);
    } catch (err) {
      result = 'fetch-failed';
      throw err;
    }
    status.fetchedRevision = snap.revision;
    // 2. Choose: the newest revision unless it was rejected; then the last good one stays desired.
    let target = snap;
    if (status.rejectedRevisions.includes(snap.revision)) {
      const good = ports.memory.lastGood;
      result = 'invalid';
      if (!good) return requeue(result, options.intervalMs);
      target = good;
    }
    revision = target.revision;
    // 3. Validate: an invalid revision is not applied at all.
    const validation = await ports.validate(target.dir);
    // While the newest revision stays rejected, its diagnostics stay the ones shown.
    if (target === snap) status.lastDiagnostics = [...validation.diagnostics];
    if (!validation.ok) {
      status.rejectedRevisions = [target.revision, ...status.rejectedRevisions].slice(
        0,
        MAX_REJECTED,
      );
      status.lastAttemptedRevision = target.revision;
      logger.warn(
        { event: 'revision-rejected', revision, diagnostics: validation.diagnostics.length },
        'manifests do not validate; keeping the last good revision',
      );
      for (const d of validation.diagnostics) {
        logger.warn({ event: 'diagnostic', revision, code: d.code, at: d.at }, d.message);
      }
      result = 'invalid';
      return requeue(result, options.intervalMs);
    }
    ports.memory.lastGood = target;
    status.lastGoodRevision = target.revision;
    await ports.source.retain(
      [target.revision, snap.revision, status.lastAppliedRevision].filter(isString),
    );
    // 4. Decide the mode: suspended and dry-run only plan; a revision yielding nothing never prunes.
    const suspended = options.suspend || snap.suspendFile;
    status.suspended = suspended;
    const applying = !suspended && !options.dryRun;
    if (validation.manifestCount === 0 && options.prune) {
      logger.warn(
        { event: 'no-manifests', revision },
        'the revision yields no manifests: pruning is off for this run',
      );
    }
    const now = clock.now();
    const skipKeys = backoff.waiting(now).filter((k) => k !== RUN_KEY);
    // 5. Run: the engine's own run function, bounded by the run timeout.
    logger.info(
      { event: 'run-start', revision, mode: applying ? 'apply' : 'plan', suspended },
      'reconciling',
    );
    const report = await withTimeout(options.runTimeoutMs, clock, signal, (s) =>
      ports.run(
        {
          runId,
          dir: target.dir,
          revision: target.revision,
          mode: applying ? 'apply' : 'plan',
          prune: options.prune && validation.manifestCount > 0,
          selfHeal: options.selfHeal,
          skipKeys,
          approvedDeletes: ports.memory.approvedDeletes ?? [],
        },
        s,
      ),
    );
    // 6. Record: status, metrics, per-resource backoff.
    result = record(report, applying, target.revision, runId, ports, options);
    if (result === 'succeeded') ports.memory.approvedDeletes = undefined;
    return requeue(result, options.intervalMs);
  } catch (err) {
    const message = err instanceof PlatctlError ? err.message : redact(String(err));
    status.lastError = message;
    logger.error({ event: 'run-error', revision, result }, message);
    return requeue(result, options.intervalMs);
  } finally {
    // Status and metrics are finalized whatever happened (the flux `defer` habit).
    const seconds = (clock.now() - started) / 1000;
    status.lastResult = result;
    status.lastRunAt = new Date(clock.now()).toISOString();
    ports.metrics.run(result, seconds);
    status.backoff = Object.fromEntries(
      backoff.waiting(clock.now()).map((k) => [k, backoff.remaining(k, clock.now())]),
    );
    logger.info({ event: 'run-end', revision, result, seconds }, `run ${result}`);
  }

  function requeue(r: RunResult, intervalMs: number): StepOutcome {
    if (r === 'failed' || r === 'fetch-failed' || r === 'interrupted') {
      const delay = backoff.fail(RUN_KEY, clock.now());
      return { result: r, requeueAfterMs: Math.min(intervalMs, delay) };
    }
    backoff.succeed(RUN_KEY);
    return { result: r, requeueAfterMs: intervalMs };
  }
}

function isString(v: string | undefined): v is string {
  return v !== undefined;
}
