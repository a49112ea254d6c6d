import type {
  ActionOutcome,
  ActionType,
  FieldChange,
  ReasonCode,
  ResourceRef,
} from '../../model/action.js';
import type { Kind } from '../../model/manifest.js';
import type { LeftOnPlatform, Plan, PruneHeld, WindowHold } from '../../model/plan.js';
import type { LiveObject } from '../../model/provider.js';
import type { PowerRequests } from '../../reconcile/power-requests.js';

/** A problem in the manifests of a revision, as shown in `/status` and logs. */
export interface ControllerDiagnostic {
  readonly severity: 'error' | 'warning';
  readonly code: string;
  readonly message: string;
  /** `file:line:col`, relative to the manifests path, when known. */
  readonly at?: string;
}

/** What validating a snapshot found, before anything is sent to the platform. */
export interface ValidationReport {
  readonly ok: boolean;
  readonly manifestCount: number;
  readonly diagnostics: readonly ControllerDiagnostic[];
}

/** Loads and validates the manifests of a snapshot (file I/O only). */
export type ValidatePort = (dir: string) => Promise<ValidationReport>;

/** One reconcile run as the loop asks for it. */
export interface RunRequest {
  /** The controller's id of this run (history, outcomes, prune approval). */
  readonly runId: string;
  readonly dir: string;
  readonly revision: string;
  /** `plan` observes and plans only (dry-run, suspended, or drift reported without self-heal). */
  readonly mode: 'apply' | 'plan';
  /** Pruning as `apply --prune`, with the engine's own guards. */
  readonly prune: boolean;
  /** Correct drift (true) or only report it (false). */
  readonly selfHeal: boolean;
  /** Resources in backoff: their actions are not started in this run. */
  readonly skipKeys: readonly string[];
  /** Keys whose prune deletion a person approved past `--max-deletes`. @default [] */
  readonly approvedDeletes?: readonly string[];
  /** Policy rules (`require-approval`) a person approved for this revision, by name. @default [] */
  readonly approvedPolicies?: readonly string[];
  /** Power asked through the control API, by instance key (docs/dashboard.md). @default {} */
  readonly powerRequests?: PowerRequests;
  /**
   * Called whenever the run makes progress (an API answer, an action's start, progress line or
   * end): the loop's watchdog. `what` names it briefly. Undefined: nobody watches.
   */
  readonly heartbeat?: (what: string) => void;
  /**
   * Asked before every platform write (each action, each mutating request): false once this
   * replica may no longer prove it leads; nothing more is sent and the actions not started are
   * reported `not-started`. No I/O. Undefined: always true.
   */
  readonly canWrite?: () => boolean;
}

/** One resource's share of a run. */
export interface ResourceReport {
  readonly key: string;
  readonly kind: Kind;
  readonly action: ActionType;
  readonly reason: ReasonCode;
  readonly message: string;
  /** `planned` when the run only planned. */
  readonly outcome: ActionOutcome['status'] | 'planned';
  readonly error?: string;
  /** Where it lives on the platform; undefined only from test doubles. */
  readonly ref?: ResourceRef;
  /** Identity keys of the resources this action waits for. @default [] */
  readonly dependsOn?: readonly string[];
  /** Field changes (secrets masked): the resource's diff. @default [] */
  readonly changes?: readonly FieldChange[];
  /** When the action started (epoch ms); undefined when it did not start (or only planned). */
  readonly startedAt?: number;
  /** How long it ran, in ms, when it ran. */
  readonly elapsedMs?: number;
}

/** A resource as read from the platform (managed fields, secrets masked by its provider). */
export type LiveView = Pick<LiveObject, 'body' | 'status' | 'powerState'>;

/**
 * Reads one resource from the platform now (I/O, reads only): the one declared as `key` in the
 * snapshot `dir`, or the one the inventory names. Undefined when neither names it or the
 * platform has no such object.
 */
export type ObserveOne = (
  dir: string,
  key: string,
  signal: AbortSignal,
) => Promise<LiveView | undefined>;

/** A policy rule that failed for one manifest, as the controller shows it. */
export interface PolicyFinding {
  readonly rule: string;
  /** The Policy's identity key. */
  readonly policy: string;
  /** The manifest it failed for. */
  readonly key: string;
  readonly message: string;
  /** `file:line:col` of the manifest, when known. */
  readonly at?: string;
}

/** What a run did: enough for status, metrics and per-resource backoff. */
export interface RunReport {
  readonly resources: readonly ResourceReport[];
  /** Identity keys platctl manages after the run. */
  readonly inventory: readonly string[];
  /** Diagnostics from planning (e.g. an immutable field changed). */
  readonly diagnostics: readonly ControllerDiagnostic[];
  /** Keys of resources changed on the platform outside git (corrected or only reported). */
  readonly drift: readonly string[];
  /**
   * What each drift left uncorrected is, by key, where the plan said it (`spec.x: platform has 8,
   * git says 1`). @default {}
   */
  readonly driftMessages?: Readonly<Record<string, string>>;
  /** Keys whose changes were left out of the run: in backoff, or waiting on one that is. @default [] */
  readonly deferred?: readonly string[];
  /** Keys with work that waits on what this run created (a cluster's controller versions). @default [] */
  readonly postponed?: readonly string[];
  /** Prune deletions over the limit that this run held back (everything else ran). */
  readonly pruneHeld?: PruneHeld;
  /** Found objects removed from git: left on the platform, never pruned (the plan's). */
  readonly leftOnPlatform?: LeftOnPlatform;
  /** `require-approval` rules that failed in an apply: nothing ran, it waits for a person. */
  readonly policyHeld?: readonly PolicyFinding[];
  /** Actions a ChangeWindow left out of this run, with when they may run (`plan.windows`). */
  readonly windowHolds?: readonly WindowHold[];
  /** `deny` rules that failed: the revision is refused (nothing ran). */
  readonly policyDenied?: readonly PolicyFinding[];
  /** The plan the run made (docs/plan-format.md), when it got that far. */
  readonly plan?: Plan;
  /** True when the plan had errors and nothing was changed. */
  readonly blocked: boolean;
  /** True when the signal stopped the run before every action started. */
  readonly interrupted: boolean;
}

/**
 * The reconcile engine's run function, narrowed to what the loop needs: the same run `apply`
 * uses, never a second code path. Aborting `signal` starts no new action; running ones finish and
 * are recorded before it resolves. Aborting `hard` also cuts the waits and requests in flight:
 * their actions end `aborted`, the report says `interrupted`, pending creates stay recorded for
 * the next run. Throws only for whole-run problems (unreachable platform, held lock).
 */
export type ReconcileRun = (
  request: RunRequest,
  signal: AbortSignal,
  hard?: AbortSignal,
) => Promise<RunReport>;
