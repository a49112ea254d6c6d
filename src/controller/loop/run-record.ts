import type { Clock } from '../../core/clock.js';
import { PlatctlError } from '../../core/errors.js';
import type { ResourceReport, RunReport } from '../engine/ports.js';
import { conditionsOf, type RunMode } from '../status/conditions.js';
import type { RunTrigger, StoredRun } from '../status/history.js';
import type { RunResult } from '../status/status.js';
import type { StepOutcome, StepPorts } from './ports.js';
import { logResources } from './run-lines.js';

/**
 * Runs `fn` with a signal that aborts when `outer` does or after `timeoutMs` on `clock`, so a run
 * never blocks the next revision forever. The engine, seeing the abort, starts no new action and
 * lets running ones finish.
 */
export async function withTimeout<T>(
  timeoutMs: number,
  clock: Clock,
  outer: AbortSignal,
  fn: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const timer = new AbortController();
  const done = new AbortController();
  clock.sleep(timeoutMs, done.signal).then(
    () => timer.abort(new PlatctlError('timeout', `the run took longer than ${timeoutMs} ms`)),
    () => {},
  );
  try {
    return await fn(AbortSignal.any([outer, timer.signal]));
  } finally {
    done.abort();
  }
}

/**
 * Folds a run's report into status, metrics and per-resource backoff, and logs one line per
 * resource that did something (at the pace the log's destination takes them: status is left as
 * it was until they are written). Returns the run's result.
 */
export async function record(
  report: RunReport,
  mode: RunMode,
  revision: string,
  runId: string,
  ports: StepPorts,
  options: { readonly selfHeal: boolean },
): Promise<RunResult> {
  const { status, metrics, backoff, logger, clock } = ports;
  const { applying } = mode;
  const now = clock.now();
  let failed = false;
  const delays = new Map<ResourceReport, number>();
  for (const r of report.resources) {
    if (r.outcome === 'failed') {
      failed = true;
      delays.set(r, backoff.fail(r.key, now));
    } else if (r.outcome === 'succeeded') {
      backoff.succeed(r.key);
    }
  }
  await logResources(report, revision, logger, delays, () => ports.heartbeat?.beat('record'));
  const deferred = report.deferred ?? [];
  for (const key of deferred) {
    logger.info(
      { event: 'resource-deferred', revision, resource: key },
      'left out of this run: it, or what it waits for, is backing off after failures',
    );
  }
  status.conditions = conditionsOf(report, mode, status.conditions, new Date(now).toISOString());
  metrics.resources(status.conditions, report.drift);
  // noops are most of a resync and say nothing the conditions do not: only changes are kept
  status.resources = report.resources.flatMap((r) =>
    r.action === 'noop' ? [] : [r.changes ? { key: r.key, changes: r.changes } : { key: r.key }],
  );
  status.inventory = [...report.inventory];
  status.drift = [...report.drift];
  for (const key of report.drift) {
    // corrected only when this run's drift actions on the key all succeeded, not by the mode
    const fixes = report.resources.filter((r) => r.key === key && r.reason === 'drift');
    const corrected =
      applying &&
      options.selfHeal &&
      fixes.length > 0 &&
      fixes.every((r) => r.outcome === 'succeeded');
    logger.warn(
      { event: 'drift', revision, resource: key, corrected },
      corrected ? 'drift corrected' : 'drift detected (not corrected)',
    );
  }
  status.lastDiagnostics = [...status.lastDiagnostics, ...report.diagnostics];
  status.lastAttemptedRevision = revision;
  const held = report.pruneHeld;
  status.blockedPrune = held
    ? { runId, count: held.count, limit: held.limit, keys: [...held.keys] }
    : undefined;
  // held by require-approval rules alone (each is one plan error): waits for a person, not failed
  const hold = report.policyDenied ? undefined : report.policyHeld;
  const errors = report.diagnostics.filter((d) => d.severity === 'error').length;
  const policyHeld = hold !== undefined && errors === hold.length && !failed;
  status.heldPolicy = policyHeld
    ? { runId, revision, rules: [...new Set(hold.map((f) => f.rule))], findings: [...hold] }
    : undefined;
  const windowed = report.windowHolds ?? [];
  status.windowHolds = windowed.length > 0 ? windowed.slice(0, 100) : undefined;
  status.heldUntil = heldUntil(windowed);
  status.leftOnPlatform = report.leftOnPlatform;
  if (report.leftOnPlatform) {
    const { keys, message } = report.leftOnPlatform;
    logger.warn({ event: 'left-on-platform', revision, count: keys.length, keys }, message);
  }
  let result: RunResult;
  if (report.interrupted) result = 'interrupted';
  else if (policyHeld) result = 'policy-held';
  // A revision is applied only when all of it is: deferred changes are still failing ones.
  else if (failed || report.blocked || (applying && deferred.length > 0)) result = 'failed';
  else if (!applying) result = 'planned';
  else if (held) result = 'prune-blocked';
  else if (windowed.length > 0) result = 'window-held';
  // postponed work (controller versions of a cluster this run created) is not done yet
  else if ((report.postponed ?? []).length > 0) result = 'progressing';
  else result = 'succeeded';
  // The run completed: whatever error came before (a failed fetch, a timeout) is over; a held
  // prune is what stands between this revision and applied, so it is the error people see.
  status.lastError =
    result === 'prune-blocked'
      ? held?.message
      : status.heldPolicy
        ? heldMessage(status.heldPolicy.rules, runId)
        : undefined;
  if (windowed.length > 0) {
    logger.info(
      { event: 'window-held', revision, runId, count: windowed.length, until: status.heldUntil },
      `${windowed.length} action(s) held by change windows until ${status.heldUntil ?? 'a window opens'}`,
    );
  }
  if (status.heldPolicy) {
    logger.warn(
      { event: 'policy-held', revision, runId, rules: status.heldPolicy.rules },
      heldMessage(status.heldPolicy.rules, runId),
    );
  }
  if (held) {
    logger.warn(
      { event: 'prune-blocked', revision, runId, count: held.count, limit: held.limit },
      held.message,
    );
  }
  if (result === 'succeeded') {
    status.lastAppliedRevision = revision;
    status.lastAppliedAt = new Date(now).toISOString();
    metrics.applied(revision, now);
  }
  return result;
}

/** The earliest time a held action may run (ISO), undefined when none is held or none opens. */
function heldUntil(holds: readonly { readonly until?: string }[]): string | undefined {
  const times = holds.flatMap((h) => (h.until ? [h.until] : [])).sort();
  return times[0];
}

function heldMessage(rules: readonly string[], runId: string): string {
  return `held for approval by policy rule(s) ${rules.join(', ')}: nothing was changed; approve with: platctl ctl approve ${runId}`;
}

/** How many actions a stored run keeps (a first apply of thousands is summarized by counts). */
const MAX_ACTIONS = 500;

/** The history entry of a finished step (pure). `error` is the run's whole-run error, if any. */
export function runOf(
  outcome: StepOutcome,
  trigger: RunTrigger,
  error: string | undefined,
): StoredRun {
  const actions = (outcome.report?.resources ?? []).filter((r) => r.action !== 'noop');
  const done = actions.filter((a) => a.outcome === 'succeeded' || a.outcome === 'planned');
  const failures = actions
    .filter((a) => a.outcome === 'failed')
    .map((a) => ({ key: a.key, error: a.error ?? 'failed' }));
  if (!outcome.report && error !== undefined && outcome.result !== 'invalid') {
    failures.push({ key: '*', error });
  }
  return {
    runId: outcome.runId ?? 'unknown',
    ...(outcome.revision !== undefined ? { revision: outcome.revision } : {}),
    trigger,
    startedAt: new Date(outcome.startedAt ?? 0).toISOString(),
    durationMs: outcome.durationMs ?? 0,
    result: outcome.result,
    counts: {
      create: done.filter((a) => a.action === 'create').length,
      update: done.filter((a) => a.action === 'update').length,
      delete: done.filter((a) => a.action === 'delete').length,
      other: done.filter((a) => !['create', 'update', 'delete'].includes(a.action)).length,
      failed: failures.length,
      skipped: actions.filter((a) => a.outcome === 'skipped').length,
    },
    failures,
    actions: actions.slice(0, MAX_ACTIONS).map((a) => ({
      key: a.key,
      type: a.action,
      reason: a.reason,
      ...(a.message ? { message: a.message } : {}),
      outcome: a.outcome,
      ...(a.error !== undefined ? { error: a.error } : {}),
      ...(a.startedAt !== undefined ? { startedAt: new Date(a.startedAt).toISOString() } : {}),
      ...(a.elapsedMs !== undefined ? { durationMs: a.elapsedMs } : {}),
    })),
  };
}
