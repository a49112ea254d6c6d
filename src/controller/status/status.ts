import type { LeftOnPlatform, WindowHold } from '../../model/plan.js';
import type { PowerRequests } from '../../reconcile/power-requests.js';
import type { ControllerDiagnostic, PolicyFinding, ResourceReport } from '../engine/ports.js';
import type { Snapshot } from '../sources/source.js';
import { type ConditionType, countConditions, type ResourceCondition } from './conditions.js';

/** What status keeps of a resource the last run changed: its key and its field changes. */
type ResourceChanges = Pick<ResourceReport, 'key' | 'changes'>;

/** Outcome of the last reconcile attempt. */
export type RunResult =
  | 'succeeded' // every action done (or nothing to do)
  | 'failed' // an action failed or was deferred (backoff), or the run could not start
  | 'invalid' // the revision's manifests do not validate; nothing was sent
  | 'interrupted' // stopped by shutdown or the run timeout
  | 'planned' // dry-run, suspended, or drift only reported
  | 'prune-blocked' // everything ran but prune deletions over the limit, held for approval
  | 'policy-held' // a `require-approval` policy rule failed: nothing ran, held for approval
  | 'window-held' // everything ran but actions outside their change window, held until it opens
  | 'progressing' // done so far, but work waits on what this run created: requeued soon
  | 'fetch-failed'; // the source could not be read

/**
 * What the loop knows, shared with the control surface. JSON-serializable, no secret in it;
 * `/status` serves it as {@link StatusDocument}.
 */
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
  /**
   * Each resource the last run changed or tried to (noops are left out), with its field changes:
   * what `diffOf` answers until the next run is recorded. Only these two fields are kept: the
   * rest of the report (100,000 entries after a first apply) was held through the whole next run.
   */
  resources: ResourceChanges[];
  /** Identity keys platctl manages after the last run. */
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
  /** A run held by `require-approval` policy rules, until a person approves them. */
  heldPolicy?: HeldPolicy;
  /** Actions the last run left out for their change window (the first 100), until it opens. */
  windowHolds?: WindowHold[];
  /** ISO time the first held action may run (the controller wakes then); absent: none held. */
  heldUntil?: string;
  /**
   * Found objects the last run saw removed from git: left on the platform, with what their
   * compute keeps costing and how to adopt, delete or forget them. Recomputed by every run.
   */
  leftOnPlatform?: LeftOnPlatform;
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

/**
 * Kept by the loop between steps and shared with the control surface; approvals and a suspension
 * made through the API are saved with the status.
 */
export interface StepMemory {
  /** The last snapshot that validated: the desired state while newer revisions are rejected. */
  lastGood?: Snapshot;
  /** The newest snapshot fetched: what a reconcile without the source runs on. */
  lastFetched?: Snapshot;
  /** Prune deletions a person approved past the limit; kept until a run succeeds. */
  approvedDeletes?: readonly string[];
  /** Policy rules a person approved; kept until a run succeeds. */
  approvedPolicies?: readonly string[];
  /**
   * Power states and reboots asked through the control API, by instance key (persisted, kept:
   * the runs keep the state asked, where git pins none).
   */
  powerRequests?: PowerRequests;
  /** Suspended through the control API (persisted); `--suspend` and the file also suspend. */
  suspended?: boolean;
  /** The next step reuses {@link lastFetched} instead of fetching (a reconcile without source). */
  skipFetch?: boolean;
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
  /** The request budget per second all replicas share (`--rps`); absent when unlimited. */
  readonly rps?: number;
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
interface RejectedRevision {
  readonly revision: string;
  /** ISO time it was rejected. */
  readonly at: string;
  /** `PolicyDenied`: it validates but a `deny` policy rule refused it. Absent: it does not validate. */
  readonly reason?: 'PolicyDenied';
  readonly diagnostics: readonly ControllerDiagnostic[];
}

/** A prune over the limit waiting for a person: approve it by `runId`. */
export interface BlockedPrune {
  readonly runId: string;
  readonly count: number;
  readonly limit: number;
  readonly keys: readonly string[];
}

/** A run held by `require-approval` policy rules: approve it by `runId` (`platctl ctl approve`). */
export interface HeldPolicy {
  readonly runId: string;
  readonly revision: string;
  /** The rule names that need approval. */
  readonly rules: readonly string[];
  readonly findings: readonly PolicyFinding[];
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

/** How many failures and drifted keys `/status` lists; its counts say how many there are. */
const STATUS_LISTED = 100;

/**
 * The document served at `/status`: the status with counts in place of the per-resource lists
 * (those are paged by `GET /api/v1/resources`), so its size does not grow with the platform.
 */
export type StatusDocument = Omit<
  ControllerStatus,
  'resources' | 'inventory' | 'conditions' | 'drift'
> & {
  counts: {
    /** Resources per condition after the last run, with the total. */
    resources: Record<ConditionType, number> & { total: number };
    inventory: number;
    drift: number;
    failures: number;
  };
  /** The first {@link STATUS_LISTED} `Degraded` resources, in plan order, with why. */
  failures: { key: string; reason: string; message?: string }[];
  /** The first {@link STATUS_LISTED} drifted keys. */
  drift: string[];
};

/** The status as served (pure): counts and failures, `nextRunInMs` counted down to `nowMs`. */
export function statusView(status: ControllerStatus, nowMs: number): StatusDocument {
  const { nextRunAt, resources: _r, inventory, conditions, drift, ...rest } = status;
  const failures = conditions.filter((c) => c.condition === 'Degraded');
  return {
    ...rest,
    counts: {
      resources: countConditions(conditions),
      inventory: inventory.length,
      drift: drift.length,
      failures: failures.length,
    },
    failures: failures.slice(0, STATUS_LISTED).map((c) => ({
      key: c.key,
      reason: c.reason,
      ...(c.message ? { message: c.message } : {}),
    })),
    drift: drift.slice(0, STATUS_LISTED),
    ...(rest.leftOnPlatform
      ? {
          leftOnPlatform: {
            ...rest.leftOnPlatform,
            keys: rest.leftOnPlatform.keys.slice(0, STATUS_LISTED),
          },
        }
      : {}),
    ...(nextRunAt !== undefined ? { nextRunAt, nextRunInMs: Math.max(0, nextRunAt - nowMs) } : {}),
  };
}
