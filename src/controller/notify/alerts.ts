/**
 * What the controller tells people about, derived from its run outcomes and status (never from
 * log lines). The shapes the controller passes in are narrowed here to the fields alerts read, so
 * this folder imports none of the controller's types and the controller's status and step
 * outcome fit as they are.
 */

/** The closed set of alerts. */
export type AlertKind =
  | 'run-failed' // a run failed (an action, the whole run, or fetching the source)
  | 'revision-rejected' // the newest revision does not validate; the last good one stays desired
  | 'drift-detected' // resources changed on the platform outside git
  | 'prune-blocked' // prune deletions over the limit held back for approval
  | 'approval-required' // a run held by require-approval policy rules until someone approves
  | 'revision-applied' // a revision applied with no failure (commit status: success)
  | 'recovered'; // a condition above is over (first success, source ready, drift gone, prune released)

/** The conditions a `recovered` alert can end. */
export type RecoverableKind =
  | 'run-failed'
  | 'revision-rejected'
  | 'drift-detected'
  | 'prune-blocked'
  | 'approval-required';

export type Severity = 'info' | 'warning' | 'error';

const SEVERITIES: readonly Severity[] = ['info', 'warning', 'error'];

/** True when `s` is at least `min`. Pure. */
export function atLeast(s: Severity, min: Severity): boolean {
  return SEVERITIES.indexOf(s) >= SEVERITIES.indexOf(min);
}

/** One alert, JSON-safe; what every provider renders. Never holds a secret (see `redact.ts`). */
export interface Alert {
  readonly kind: AlertKind;
  readonly severity: Severity;
  /** One line for people. */
  readonly summary: string;
  /** Detail lines: diagnostics with `file:line:col`, failures, keys (at most {@link MAX_DETAILS}). */
  readonly details: readonly string[];
  /** The commit concerned, when there is one. */
  readonly revision?: string;
  /** Identity keys concerned (at most {@link MAX_DETAILS}). */
  readonly resources: readonly string[];
  /** The controller's run that found it. */
  readonly runId?: string;
  /** The run's page on the dashboard, when the notifications file names `dashboardUrl`. */
  readonly url?: string;
  /** For `recovered`: which condition is over. */
  readonly recovered?: RecoverableKind;
  /** The controller's source (`git <repo>#<branch>:<path>`, no credentials). */
  readonly source: string;
  /** With `--shard-by`: the replica that sent it (its alerts are about its own shards). */
  readonly replica?: string;
  /** ISO time. */
  readonly at: string;
}

/** Details and resources an alert carries at most; a first apply of thousands is summarized. */
const MAX_DETAILS = 20;

/** The fields of the controller's status that alerts read (`ControllerStatus` fits). */
export interface StatusView {
  readonly source: string;
  readonly sourceReady: boolean;
  readonly fetchedRevision?: string;
  readonly lastAppliedRevision?: string;
  readonly lastAttemptedRevision?: string;
  readonly lastResult?: string;
  readonly lastError?: string;
  readonly rejectedRevisions: readonly string[];
  readonly rejected: readonly {
    readonly revision: string;
    readonly at?: string;
    /** `PolicyDenied`: a deny policy rule refused it. */
    readonly reason?: string;
    readonly diagnostics: readonly { readonly message: string; readonly at?: string }[];
  }[];
  readonly drift: readonly string[];
  /** A run held by require-approval policy rules (the latest run's; absent once it is not). */
  readonly heldPolicy?: {
    readonly runId: string;
    readonly revision: string;
    readonly rules: readonly string[];
    readonly findings: readonly {
      readonly key: string;
      readonly message: string;
      readonly at?: string;
    }[];
  };
  readonly conditions: readonly {
    readonly key: string;
    readonly condition: string;
    readonly reason: string;
  }[];
  readonly blockedPrune?: { readonly runId: string; readonly keys: readonly string[] };
  /** With `--shard-by`: this replica and the shards it holds (`global` on exactly one). */
  readonly shards?: { readonly replica: string; readonly held: readonly string[] };
}

/** The fields of a finished step that alerts read (`StepOutcome` fits). */
export interface StepView {
  readonly result: string;
  readonly runId?: string;
  readonly revision?: string;
  /** Present when the engine ran (the platform was observed). */
  readonly report?: {
    readonly drift: readonly string[];
    readonly resources: readonly {
      readonly key: string;
      readonly action: string;
      readonly outcome: string;
      readonly error?: string;
    }[];
    readonly pruneHeld?: {
      readonly count: number;
      readonly limit: number;
      readonly keys: readonly string[];
      readonly message: string;
    };
  };
}

/**
 * True for alerts about the source rather than about resources: every sharded replica fetches
 * and validates the same revision, so only the one holding the `global` shard sends them. Pure.
 */
export function aboutSource(alert: Alert): boolean {
  if (alert.kind === 'revision-rejected' || alert.recovered === 'revision-rejected') return true;
  return alert.kind === 'run-failed' && alert.revision === undefined;
}

/** The rejected revision when it is the newest one fetched (HEAD), else undefined. Pure. */
export function rejectedHead(status: StatusView): StatusView['rejected'][number] | undefined {
  const newest = status.rejected[0];
  if (status.sourceReady || !newest || newest.revision !== status.fetchedRevision) return undefined;
  return newest;
}

/** Drifted keys a run left uncorrected (their condition is not `DriftCorrected`). Pure. */
export function uncorrected(drift: readonly string[], status: StatusView): string[] {
  const corrected = new Set(
    status.conditions.filter((c) => c.reason === 'DriftCorrected').map((c) => c.key),
  );
  return drift.filter((k) => !corrected.has(k));
}

/** At most {@link MAX_DETAILS} entries, the rest counted in a last line. Pure. */
export function bounded(lines: readonly string[]): string[] {
  if (lines.length <= MAX_DETAILS) return [...lines];
  return [...lines.slice(0, MAX_DETAILS - 1), `... and ${lines.length - MAX_DETAILS + 1} more`];
}

/** The short form of a commit SHA for people. Pure. */
export function short(revision: string | undefined): string {
  return revision === undefined ? 'unknown' : revision.slice(0, 12);
}
