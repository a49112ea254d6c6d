import { randomUUID } from 'node:crypto';
import { PlatctlError, redact } from '../../core/errors.js';
import { nextTurn } from '../../core/slices.js';
import type { RunReport } from '../engine/ports.js';
import type { Snapshot } from '../sources/source.js';
import type { RunResult } from '../status/status.js';
import type { BackoffTracker } from './backoff.js';
import type { StepOptions, StepOutcome, StepPorts } from './ports.js';
import { denyRevision, lastGoodSnapshot, reject, revOf, withManifests } from './revisions.js';
import { record, withTimeout } from './run-record.js';
import { wakeForSchedules } from './schedule-wake.js';

const RUN_KEY = '<run>';

/**
 * One level-based reconcile: fetch → choose the desired revision → validate → run → record.
 * Idempotent: running it twice with nothing changed makes no change. Never throws; failures are
 * recorded in status and become a backed-off requeue. `signal` starts no new action; `hard` also
 * cuts the waits and requests in flight (a shutdown past its timeout).
 */
export async function reconcileStep(
  options: StepOptions,
  ports: StepPorts,
  signal: AbortSignal,
  hard?: AbortSignal,
): Promise<StepOutcome> {
  const { status, logger, clock, backoff, memory } = ports;
  const beat = (what: string) => ports.heartbeat?.beat(what);
  const started = clock.now();
  const runId = randomUUID();
  let result: RunResult = 'failed';
  let revision: string | undefined;
  let report: RunReport | undefined;
  let sourceReady = false;
  status.nextRunAt = undefined;
  try {
    // 1. Fetch: the newest revision, as an immutable snapshot (or the last one, when asked).
    let snap: Snapshot;
    const reuse = memory.skipFetch ? memory.lastFetched : undefined;
    memory.skipFetch = false;
    const fetchStart = clock.now();
    beat('fetch');
    try {
      snap = reuse ?? (await ports.source.fetch(signal));
      if (!reuse) ports.metrics.fetched((clock.now() - fetchStart) / 1000, true);
    } catch (err) {
      ports.metrics.fetched((clock.now() - fetchStart) / 1000, false);
      result = 'fetch-failed';
      throw err;
    }
    memory.lastFetched = snap;
    status.fetchedRevision = snap.revision;
    status.revisions.fetched = revOf(snap);
    // 2. Choose: the newest revision unless it was rejected; then the last good one stays desired.
    let target = snap;
    if (status.rejectedRevisions.includes(snap.revision)) {
      const good = await lastGoodSnapshot(ports, signal);
      result = 'invalid';
      if (!good) return requeue(result);
      target = good;
    }
    revision = target.revision;
    // 3. Validate: an invalid revision (or one with no manifests at the path) is not applied.
    beat('validate');
    const validation = withManifests(await ports.validate(target.dir), ports.source.description);
    // While the newest revision stays rejected, its diagnostics stay the ones shown, followed by
    // this run's alone (each run starts from them: a resync must not add to the last one's).
    status.lastDiagnostics =
      target === snap
        ? [...validation.diagnostics]
        : [...(status.rejected.find((r) => r.revision === snap.revision)?.diagnostics ?? [])];
    if (!validation.ok) {
      reject(target, validation.diagnostics, ports);
      result = 'invalid';
      return requeue(result);
    }
    sourceReady = target === snap;
    // what stays desired if a deny policy refuses this revision after its run
    const previous = {
      ...(memory.lastGood ? { snap: memory.lastGood } : {}),
      ...(status.lastGoodRevision !== undefined ? { revision: status.lastGoodRevision } : {}),
      ...(status.revisions.lastGood ? { rev: status.revisions.lastGood } : {}),
    };
    memory.lastGood = target;
    status.lastGoodRevision = target.revision;
    status.revisions.lastGood = revOf(target);
    await ports.source.retain(
      [target.revision, snap.revision, status.lastAppliedRevision].filter(isString),
    );
    // 4. Decide the mode: suspended and dry-run only plan. What people asked (a suspension,
    // approvals) is read from the state store here, after the fetch: a suspension made before
    // a push holds for a run that started before it and fetched the push.
    await readIntent(ports);
    const suspended = options.suspend || snap.suspendFile || memory.suspended === true;
    status.suspended = suspended;
    const applying = !suspended && !options.dryRun;
    const skipKeys = backoff.waiting(clock.now()).filter((k) => k !== RUN_KEY);
    // 5. Run: the engine's own run function, bounded by the run timeout.
    logger.info(
      { event: 'run-start', revision, runId, mode: applying ? 'apply' : 'plan', suspended },
      'reconciling',
    );
    beat('run');
    report = await withTimeout(options.runTimeoutMs, clock, signal, (s) =>
      ports.run(
        {
          runId,
          dir: target.dir,
          revision: target.revision,
          mode: applying ? 'apply' : 'plan',
          prune: options.prune,
          selfHeal: options.selfHeal,
          skipKeys,
          approvedDeletes: memory.approvedDeletes ?? [],
          approvedPolicies: memory.approvedPolicies ?? [],
          ...(memory.powerRequests ? { powerRequests: memory.powerRequests } : {}),
          heartbeat: (what) => beat(`run: ${what}`),
          ...(ports.canWrite ? { canWrite: ports.canWrite } : {}),
        },
        s,
        hard,
      ),
    );
    // 6. Record: status, conditions, metrics, per-resource backoff (after a turn of the event
    // loop: the run's last stage and this one are long at 100,000 resources).
    await nextTurn();
    beat('record');
    result = await record(report, { applying, suspended }, target.revision, runId, ports, options);
    status.revisions.lastAttempted = revOf(target);
    if (status.lastAppliedRevision === target.revision)
      status.revisions.lastApplied = revOf(target);
    if (result === 'succeeded') {
      memory.approvedDeletes = undefined;
      memory.approvedPolicies = undefined;
    }
    // 7. A deny policy refuses the revision: the last good one stays desired.
    if (target === snap && denyRevision(target, report, previous, ports)) {
      sourceReady = false;
      result = 'invalid';
      return requeue(result);
    }
    // A resync of the last good revision while the newest stays rejected is not a success.
    if (!sourceReady && (result === 'succeeded' || result === 'planned')) result = 'invalid';
    return requeue(result);
  } catch (err) {
    const message = err instanceof PlatctlError ? err.message : redact(String(err));
    status.lastError = message;
    logger.error({ event: 'run-error', revision, result }, message);
    return requeue(result);
  } finally {
    // Status and metrics are finalized whatever happened (the flux `defer` habit).
    const seconds = (clock.now() - started) / 1000;
    status.lastResult = result;
    status.lastRunAt = new Date(clock.now()).toISOString();
    status.sourceReady = sourceReady;
    ports.metrics.sourceReady(sourceReady);
    ports.metrics.suspended(status.suspended);
    ports.metrics.run(result, seconds);
    status.backoff = Object.fromEntries(
      backoff.waiting(clock.now()).map((k) => [k, backoff.remaining(k, clock.now())]),
    );
    logger.info({ event: 'run-end', revision, runId, result, seconds }, `run ${result}`);
  }

  function requeue(r: RunResult): StepOutcome {
    // a power schedule's next boundary, or a change window's opening, wakes the loop sooner
    // than its interval
    const next = wakeAt(
      wakeForSchedules(nextAfter(r, options, backoff, clock.now()), report?.plan, clock.now()),
      status.heldUntil,
      clock.now(),
    );
    status.nextRunAt = clock.now() + next.requeueAfterMs;
    return {
      ...next,
      runId,
      ...(revision !== undefined ? { revision } : {}),
      startedAt: started,
      durationMs: clock.now() - started,
      ...(report ? { report } : {}),
    };
  }
}

/** Sooner than `next` when a held action's change window opens first (`heldUntil`, ISO). */
function wakeAt(next: StepOutcome, heldUntil: string | undefined, now: number): StepOutcome {
  if (heldUntil === undefined) return next;
  const opens = Date.parse(heldUntil) - now;
  return { ...next, requeueAfterMs: Math.min(next.requeueAfterMs, Math.max(0, opens)) };
}

/** Puts what people asked into memory; a store that cannot say fails the step (I/O). */
async function readIntent(ports: StepPorts): Promise<void> {
  try {
    await ports.intent?.refresh();
  } catch (err) {
    throw new PlatctlError(
      'state',
      `cannot read what was asked through the control API (suspension, approvals) from the state store: ${err instanceof Error ? err.message : String(err)}`,
      { cause: err },
    );
  }
}

/** When to run again: failures back off, postponed work comes back soon, the rest waits. */
function nextAfter(
  r: RunResult,
  options: StepOptions,
  backoff: BackoffTracker,
  now: number,
): StepOutcome {
  if (r === 'failed' || r === 'fetch-failed' || r === 'interrupted') {
    const delay = backoff.fail(RUN_KEY, now);
    return { result: r, requeueAfterMs: Math.min(options.intervalMs, delay) };
  }
  backoff.succeed(RUN_KEY);
  if (r === 'progressing') {
    const soon = options.progressingRequeueMs ?? 5_000;
    return { result: r, requeueAfterMs: Math.min(options.intervalMs, soon) };
  }
  return { result: r, requeueAfterMs: options.intervalMs };
}

function isString(v: string | undefined): v is string {
  return v !== undefined;
}
