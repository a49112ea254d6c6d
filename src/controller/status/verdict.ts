import { leftHint } from '../../reconcile/prune-rules.js';
import type { RunReport } from '../engine/ports.js';

/**
 * The one condition each resource is in, as `platctl ctl status` and the control API show it.
 * `Orphaned`: removed from git but not created by this state, so left on the platform.
 */
export type ConditionType =
  | 'Ready'
  | 'Progressing'
  | 'Degraded'
  | 'Drifted'
  | 'Suspended'
  | 'Orphaned';

export const CONDITION_TYPES: readonly ConditionType[] = [
  'Ready',
  'Progressing',
  'Degraded',
  'Drifted',
  'Suspended',
  'Orphaned',
];

/** How the run was made, which decides what a change not made means. */
export interface RunMode {
  readonly applying: boolean;
  readonly suspended: boolean;
}

/** What a run says of one resource: its condition, why, and a message. */
export interface Verdict {
  readonly condition: ConditionType;
  readonly reason: string;
  readonly message?: string;
}

/**
 * The condition a run leaves `key` in (pure), from its actions in the report, the report's
 * holds and drift, and how the run was made; undefined when the run deleted it.
 */
export function verdictOf(
  key: string,
  actions: RunReport['resources'],
  report: RunReport,
  mode: RunMode,
): Verdict | undefined {
  const changes = actions.some((a) => a.action !== 'noop')
    ? actions.filter((a) => a.action !== 'noop')
    : NONE;
  const drifted = report.drift.includes(key);
  const failed = changes.find((a) => a.outcome === 'failed');
  if (failed) return { condition: 'Degraded', reason: 'ActionFailed', message: failed.error ?? '' };
  if (changes.some((a) => a.outcome === 'skipped')) {
    return {
      condition: 'Degraded',
      reason: 'DependencyFailed',
      message: 'a resource it waits for failed',
    };
  }
  if ((report.deferred ?? []).includes(key)) {
    return {
      condition: 'Degraded',
      reason: 'BackingOff',
      message: 'left out of this run: backing off after failures',
    };
  }
  const policy = (report.policyDenied ?? report.policyHeld)?.find((f) => f.key === key);
  if (policy) {
    const reason = report.policyDenied ? 'PolicyDenied' : 'PolicyHeld';
    return { condition: 'Degraded', reason, message: `${policy.rule}: ${policy.message}` };
  }
  const window = report.windowHolds?.find((h) => h.key === key);
  if (window) {
    const until = window.until ? `held until ${window.until}` : 'held: no window opens soon';
    return {
      condition: 'Progressing',
      reason: 'WindowHeld',
      message: `${until} (change window ${window.window})`,
    };
  }
  if (report.pruneHeld?.keys.includes(key)) {
    return { condition: 'Degraded', reason: 'PruneBlocked', message: report.pruneHeld.message };
  }
  if (report.leftOnPlatform?.keys.includes(key)) {
    return {
      condition: 'Orphaned',
      reason: 'RemovedFromGit',
      message: leftHint(key),
    };
  }
  if (changes.some((a) => a.outcome === 'not-started')) {
    return {
      condition: 'Progressing',
      reason: 'Interrupted',
      message: 'the run stopped before its change started',
    };
  }
  if ((report.postponed ?? []).includes(key)) {
    return {
      condition: 'Progressing',
      reason: 'Postponed',
      message: 'waits on what this run created; requeued soon',
    };
  }
  const pending = changes.filter((a) => a.outcome === 'planned');
  if (pending.length > 0) {
    const message = pending[0]?.message;
    // a drift stays a drift while suspended (counted under Drifted, not hidden among Suspended)
    const drift = pending.find((a) => a.reason === 'drift');
    if (drift && mode.suspended) {
      const what = drift.message ? `${drift.message}; ` : '';
      return { condition: 'Drifted', reason: 'Drift', message: `${what}suspended: not corrected` };
    }
    if (mode.suspended)
      return { condition: 'Suspended', reason: 'Suspended', ...(message ? { message } : {}) };
    if (drift) return { condition: 'Drifted', reason: 'Drift', ...(message ? { message } : {}) };
    const reason = pending.some((a) => a.action === 'delete') ? 'Pruning' : 'Planned';
    return { condition: 'Progressing', reason, ...(message ? { message } : {}) };
  }
  if (changes.some((a) => a.action === 'delete')) return undefined; // pruned: gone
  if (changes.length > 0) {
    const corrected = changes.some((a) => a.reason === 'drift');
    return {
      condition: 'Ready',
      reason: corrected ? 'DriftCorrected' : 'Applied',
      message: changes[0]?.message ?? '',
    };
  }
  if (drifted) {
    const what = report.driftMessages?.[key];
    return {
      condition: 'Drifted',
      reason: 'Drift',
      message: what ? `${what}; self-heal is off` : 'changed outside git; self-heal is off',
    };
  }
  return IN_SYNC;
}

const NONE: RunReport['resources'] = [];
/** The verdict of most resources of a resync: one object for all of them. */
const IN_SYNC: Verdict = Object.freeze({ condition: 'Ready', reason: 'InSync' });
