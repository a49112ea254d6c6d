import type { StoredJson } from '../../state/types.js';
import type { StepOutcome } from '../loop/reconcile-step.js';
import type { RunResult } from './status.js';

/** What started a run. */
export type RunTrigger = 'interval' | 'webhook' | 'manual' | 'watch' | 'startup';

/** One run as the control API lists it (`GET /api/v1/runs`). */
export interface RunItem {
  readonly runId: string;
  readonly revision?: string;
  readonly trigger: RunTrigger;
  /** ISO time. */
  readonly startedAt: string;
  readonly durationMs: number;
  readonly result: RunResult;
  readonly counts: {
    readonly create: number;
    readonly update: number;
    readonly delete: number;
    readonly other: number;
    readonly failed: number;
    readonly skipped: number;
  };
  readonly failures: readonly { readonly key: string; readonly error: string }[];
}

/** One action of a run, kept with the run for a resource's action history. */
export interface RunAction {
  readonly key: string;
  readonly type: string;
  readonly reason: string;
  readonly outcome: string;
  readonly error?: string;
}

/** A run as the state store keeps it: the item plus its non-noop actions (bounded). */
export interface StoredRun extends RunItem {
  readonly actions: readonly RunAction[];
}

/** How many runs the history keeps. */
export const HISTORY_SIZE = 50;
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
      outcome: a.outcome,
      ...(a.error !== undefined ? { error: a.error } : {}),
    })),
  };
}

/** The API form of a stored run: without its actions. */
export function runItem(stored: StoredRun | StoredJson): RunItem {
  const { actions: _actions, ...item } = stored as StoredRun;
  return item;
}
