import type { LeftOnPlatform, WindowHold } from '../../model/plan.js';
import type { ControllerDiagnostic } from '../engine/ports.js';
import { stripUserinfo } from '../sources/safe-url.js';
import type { SourceConfig } from '../sources/source-factory.js';
import {
  type ConditionType,
  countConditions,
  type ResourceCondition,
} from '../status/conditions.js';
import type {
  BlockedPrune,
  ControllerStatus,
  HeldPolicy,
  Rev,
  RunResult,
  ShardStatus,
} from '../status/status.js';

/** Where desired state comes from, as the control API shows it (no credentials). */
export interface SourceView {
  readonly repo?: string;
  readonly branch?: string;
  readonly path?: string;
  readonly dir?: string;
}

/** A diagnostic with its position split out, as the control API shows it. */
interface DiagnosticView {
  readonly file: string;
  readonly line?: number;
  readonly column?: number;
  readonly message: string;
  readonly severity: 'error' | 'warning';
}

/** `GET /api/v1/status` (see docs/control-api.md). */
export interface StatusView {
  readonly source: SourceView;
  readonly role: ControllerStatus['role'];
  readonly suspended: boolean;
  readonly dryRun: boolean;
  readonly selfHeal: boolean;
  readonly revisions: ControllerStatus['revisions'];
  readonly sourceReady: boolean;
  readonly rejected: readonly {
    readonly revision: string;
    readonly at: string;
    readonly reason?: 'PolicyDenied';
    readonly diagnostics: readonly DiagnosticView[];
  }[];
  readonly counts: Record<ConditionType, number> & { readonly total: number };
  readonly lastResult?: RunResult;
  readonly lastError?: string;
  readonly lastRunAt?: string;
  readonly nextRunInMs?: number;
  readonly blockedPrune?: BlockedPrune;
  /** A run held by `require-approval` policy rules until approved. */
  readonly heldPolicy?: HeldPolicy;
  /** Actions held by change windows, and when the first may run (the controller wakes then). */
  readonly windowHolds?: readonly WindowHold[];
  readonly heldUntil?: string;
  /** Found objects removed from git, left on the platform (the last run's). */
  readonly leftOnPlatform?: LeftOnPlatform;
  /** With `--shard-by project`: which replica holds which shards. */
  readonly shards?: ShardStatus;
}

/** `file:line:col` split into its parts; a diagnostic without a place has an empty file. */
function diagnosticView(d: ControllerDiagnostic): DiagnosticView {
  const m = d.at ? /^(.*?)(?::(\d+))?(?::(\d+))?$/.exec(d.at) : null;
  const message = d.code ? `${d.message} (${d.code})` : d.message;
  return {
    file: m?.[1] ?? '',
    ...(m?.[2] !== undefined ? { line: Number(m[2]) } : {}),
    ...(m?.[3] !== undefined ? { column: Number(m[3]) } : {}),
    message,
    severity: d.severity,
  };
}

/** The status as the control API serves it, `nextRunInMs` counted down to `nowMs` (pure). */
export function apiStatus(status: ControllerStatus, source: SourceView, nowMs: number): StatusView {
  const revisions = { ...status.revisions };
  // revisions known only by SHA (a status saved before commit info existed) still show
  const sha = (r: Rev | undefined, s: string | undefined) => r ?? (s ? { revision: s } : undefined);
  const fill = {
    fetched: sha(revisions.fetched, status.fetchedRevision),
    lastAttempted: sha(revisions.lastAttempted, status.lastAttemptedRevision),
    lastApplied: sha(revisions.lastApplied, status.lastAppliedRevision),
    lastGood: sha(revisions.lastGood, status.lastGoodRevision),
  };
  return {
    source,
    role: status.role,
    suspended: status.suspended,
    dryRun: status.dryRun,
    selfHeal: status.selfHeal,
    revisions: Object.fromEntries(Object.entries(fill).filter(([, v]) => v !== undefined)),
    sourceReady: status.sourceReady,
    rejected: status.rejected.map((r) => ({
      revision: r.revision,
      at: r.at,
      ...(r.reason ? { reason: r.reason } : {}),
      diagnostics: r.diagnostics.map(diagnosticView),
    })),
    counts: countConditions(status.conditions),
    ...(status.lastResult !== undefined ? { lastResult: status.lastResult } : {}),
    ...(status.lastError !== undefined ? { lastError: status.lastError } : {}),
    ...(status.lastRunAt !== undefined ? { lastRunAt: status.lastRunAt } : {}),
    ...(status.nextRunAt !== undefined
      ? { nextRunInMs: Math.max(0, status.nextRunAt - nowMs) }
      : {}),
    ...(status.blockedPrune ? { blockedPrune: status.blockedPrune } : {}),
    ...(status.heldPolicy ? { heldPolicy: status.heldPolicy } : {}),
    ...(status.windowHolds ? { windowHolds: status.windowHolds } : {}),
    ...(status.heldUntil ? { heldUntil: status.heldUntil } : {}),
    ...(status.leftOnPlatform ? { leftOnPlatform: status.leftOnPlatform } : {}),
    ...(status.shards ? { shards: status.shards } : {}),
  };
}

/** A resource as listed by `GET /api/v1/resources`. */
export function resourceView(c: ResourceCondition): ResourceCondition {
  return {
    ...c,
    ...(c.message === undefined || c.message === '' ? {} : { message: c.message }),
  };
}

/** One field of a resource's diff. */
export interface DiffEntry {
  readonly path: string;
  readonly op: 'add' | 'remove' | 'replace';
  readonly desired?: unknown;
  readonly live?: unknown;
}

/** The last run's field changes of `key` as diff entries (secrets already masked by the planner). */
export function diffOf(status: ControllerStatus, key: string): DiffEntry[] {
  return status.resources
    .filter((r) => r.key === key)
    .flatMap((r) => r.changes ?? [])
    .map((ch) => ({
      path: ch.path,
      op: ch.op,
      ...(ch.after !== undefined ? { desired: ch.after } : {}),
      ...(ch.before !== undefined ? { live: ch.before } : {}),
    }));
}

/** The source as the control API shows it: no credentials. */
export function sourceView(config: SourceConfig): SourceView {
  if (config.kind === 'dir') return { dir: config.dir };
  return { repo: stripUserinfo(config.repo), branch: config.branch, path: config.path };
}
