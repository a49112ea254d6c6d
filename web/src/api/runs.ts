/**
 * The controller's runs as the page reads them (`GET /api/v1/runs`, docs/control-api.md): each
 * run, its actions, and a resource's history of them.
 */

/** One action of a run (`GET /api/v1/runs/{runId}`). */
export interface RunAction {
  readonly key: string;
  readonly type: string;
  readonly reason: string;
  readonly message?: string;
  readonly outcome: string;
  readonly error?: string;
  /** ISO; absent for an action that did not start (planned, skipped). */
  readonly startedAt?: string;
  readonly durationMs?: number;
}

/** One entry of a resource's history: `count` consecutive runs did the same. */
export interface HistoryEntry extends Omit<RunAction, 'key'> {
  readonly runId: string;
  readonly at: string;
  readonly count: number;
  readonly since?: string;
}

export interface RunItem {
  readonly runId: string;
  readonly revision?: string;
  readonly trigger: 'interval' | 'webhook' | 'manual' | 'watch' | 'startup' | 'cli';
  readonly startedAt: string;
  readonly durationMs: number;
  readonly result: string;
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

/** `GET /api/v1/runs/{runId}`: a run with its actions. */
export interface RunDetail extends RunItem {
  readonly actions: readonly RunAction[];
}
