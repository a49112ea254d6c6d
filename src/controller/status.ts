import type { ResourceCondition } from './conditions.js';
import type { ControllerDiagnostic, ResourceReport } from './ports.js';

/** Outcome of the last reconcile attempt. */
export type RunResult =
  | 'succeeded' // every action done (or nothing to do)
  | 'failed' // an action failed or was deferred (backoff), or the run could not start
  | 'invalid' // the revision's manifests do not validate; nothing was sent
  | 'interrupted' // stopped by shutdown or the run timeout
  | 'planned' // dry-run, suspended, or drift only reported
  | 'prune-blocked' // everything ran but prune deletions over the limit, held for approval
  | 'progressing' // done so far, but work waits on what this run created: requeued soon
  | 'fetch-failed'; // the source could not be read

/** The document served at `/status`. JSON-serializable, no secret in it. */
export interface ControllerStatus {
  source: string;
  role: 'starting' | 'standby' | 'leader' | 'stopping';
  /** Who holds the lease while this replica stands by. */
  leaseHolder?: string;
  suspended: boolean;
  dryRun: boolean;
  selfHeal: boolean;
  /** Newest revision fetched. */
  fetchedRevision?: string;
  /** Revision last reconciled (whatever the result). */
  lastAttemptedRevision?: string;
  /** Revision whose apply last completed with no failure. */
  lastAppliedRevision?: string;
  lastAppliedAt?: string;
  /** Newest revision that validated: the desired state while newer ones are rejected. */
  lastGoodRevision?: string;
  /** Revisions rejected as invalid (newest first, a few kept). */
  rejectedRevisions: string[];
  lastResult?: RunResult;
  lastRunAt?: string;
  lastError?: string;
  lastDiagnostics: ControllerDiagnostic[];
  /** Drift found by the last run (resources changed outside git). */
  drift: string[];
  resources: ResourceReport[];
  inventory: string[];
  /** Resources waiting out a backoff after failures, with the ms left. */
  backoff: Record<string, number>;
  /** Milliseconds until the next run, counted down from {@link nextRunAt} when served. */
  nextRunInMs?: number;
  /** Epoch milliseconds of the next scheduled run (undefined while a run is going). */
  nextRunAt?: number;
  /** False while the newest revision is rejected or cannot be fetched. */
  sourceReady: boolean;
  /** Each resource's condition after the last run, in plan order. */
  conditions: ResourceCondition[];
  /** Prune deletions over the limit held back by the last run, until approved. */
  blockedPrune?: BlockedPrune;
  /** The revisions above with their commit subject, author and time where known. */
  revisions: {
    fetched?: Rev;
    lastAttempted?: Rev;
    lastApplied?: Rev;
    lastGood?: Rev;
  };
  /** Rejected revisions with why (newest first, a few kept). */
  rejected: RejectedRevision[];
  /** With `--shard-by project`: which replica holds which shards. */
  shards?: ShardStatus;
}

/** How the replicas split the work, as this replica last saw it (`--shard-by project`). */
export interface ShardStatus {
  readonly by: 'project';
  /** This replica's id. */
  readonly replica: string;
  /** The shards this replica holds: `project:<name>`, and `global` for users. */
  readonly held: readonly string[];
  /** Every live replica (sorted by id) with the shards it holds. */
  readonly replicas: readonly { readonly id: string; readonly shards: readonly string[] }[];
  /** This replica's part of the shared `--rps`: requests per window; absent when unlimited. */
  readonly budget?: { readonly cap: number; readonly windowMs: number };
}

/** A revision and what people recognise it by. */
export interface Rev {
  readonly revision: string;
  readonly message?: string;
  readonly author?: string;
  /** ISO commit time. */
  readonly time?: string;
}

/** A revision that did not validate, when, and its diagnostics. */
export interface RejectedRevision {
  readonly revision: string;
  /** ISO time it was rejected. */
  readonly at: string;
  readonly diagnostics: readonly ControllerDiagnostic[];
}

/** A prune over the limit waiting for a person: approve it by `runId`. */
export interface BlockedPrune {
  readonly runId: string;
  readonly count: number;
  readonly limit: number;
  readonly keys: readonly string[];
}

/** A fresh status for a source. */
export function initialStatus(
  source: string,
  flags: { suspended: boolean; dryRun: boolean; selfHeal: boolean },
): ControllerStatus {
  return {
    source,
    role: 'starting',
    ...flags,
    rejectedRevisions: [],
    sourceReady: true,
    conditions: [],
    revisions: {},
    rejected: [],
    lastDiagnostics: [],
    drift: [],
    resources: [],
    inventory: [],
    backoff: {},
  };
}

/** The status as served: `nextRunInMs` counted down to `nowMs`. */
export function statusView(status: ControllerStatus, nowMs: number): ControllerStatus {
  const { nextRunAt, ...rest } = status;
  return {
    ...rest,
    ...(nextRunAt !== undefined ? { nextRunAt, nextRunInMs: Math.max(0, nextRunAt - nowMs) } : {}),
  };
}
