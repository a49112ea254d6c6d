import type { StoredJson } from '../../state/types.js';
import type { RunResult } from './status.js';

/** What started a run (`cli`: a `platctl apply --outside-window` sharing the state store). */
export type RunTrigger = 'interval' | 'webhook' | 'manual' | 'watch' | 'startup' | 'cli';

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
  /** An apply outside change windows: why, and what ran outside which window. */
  readonly outsideWindow?: {
    readonly reason: string;
    readonly actions: readonly {
      readonly key: string;
      readonly action: string;
      readonly window: string;
    }[];
  };
}

/** One action of a run, kept with the run for a resource's action history and the run's page. */
export interface RunAction {
  readonly key: string;
  readonly type: string;
  readonly reason: string;
  /** Why, in words (`spec.x: platform has 8, git says 1`); absent in runs stored before it. */
  readonly message?: string;
  readonly outcome: string;
  readonly error?: string;
  /** ISO time the action started; absent when it did not start (planned, skipped). */
  readonly startedAt?: string;
  readonly durationMs?: number;
}

/** A run as the state store keeps it: the item plus its non-noop actions (bounded). */
export interface StoredRun extends RunItem {
  readonly actions: readonly RunAction[];
}

/** How many runs the history keeps. */
export const HISTORY_SIZE = 50;

/** The API form of a stored run: without its actions. */
export function runItem(stored: StoredRun | StoredJson): RunItem {
  const { actions: _actions, ...item } = stored as StoredRun;
  return item;
}
