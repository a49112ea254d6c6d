import type { GroupRef, Kind, Manifest, RoleRef } from '../manifests/types.js';
import type { GpuSummary } from './gpu.js';

/**
 * The plan is data: a list of actions, each with a reason, ordered by explicit dependencies.
 * It is JSON-serializable (it can be saved, posted on a pull request and applied later) and holds
 * no secret: passwords stay `passwordFrom` references until the moment of execution.
 */
export interface Plan {
  /** Format version of the JSON form (`platctl plan --output json`). */
  readonly formatVersion: 1;
  readonly actions: readonly Action[];
  /** Problems found while planning that are not actions (e.g. an immutable field changed). */
  readonly diagnostics: readonly PlanDiagnostic[];
  /**
   * Identity keys pruned with nothing to send (kinds the API cannot undo: a blueprint publish,
   * controller versions, a version's enablement; or a managed object already gone): applying the
   * plan drops them from the state store's inventory. Absent when empty.
   */
  readonly forget?: readonly string[];
  /** Prune deletions over the limit left out of this plan (`overLimit: 'hold'`); absent when none. */
  readonly pruneHeld?: PruneHeld;
  /**
   * Identity keys of live objects in this plan that this state did not create (found, not
   * created: never pruned), sorted. Absent when there are none.
   */
  readonly found?: readonly string[];
  /**
   * Identity keys whose live state could not be read (the API kept failing after retries),
   * sorted: nothing is planned for them or for what depends on them. Absent when every read
   * succeeded. `platctl plan` exits 1 when present: this plan does not show the whole platform.
   */
  readonly unreadable?: readonly string[];
  /**
   * GPU-hours (and cost, with a price file) per day and month that the compute this plan creates
   * or deletes adds or removes, per profile. Absent when it creates or deletes no compute.
   */
  readonly gpu?: GpuSummary;
}

/** Prune deletions the guard held back: more than the limit, not yet approved. */
export interface PruneHeld {
  readonly count: number;
  readonly limit: number;
  /** Identity keys whose deletion was held back, sorted. */
  readonly keys: readonly string[];
  /** One sentence for people saying why and how to go on. */
  readonly message: string;
}

export interface PlanDiagnostic {
  readonly severity: 'error' | 'warning';
  readonly key: string;
  readonly message: string;
  /** Where in the manifests the problem is, when it is at one place (preflight checks). */
  readonly file?: string;
  readonly line?: number;
  readonly col?: number;
  /**
   * A stable code for programs, where one is given: `postponed` is work that waits on what this
   * run creates, to be run again soon (a cluster's controller versions).
   */
  readonly code?: 'postponed';
}

/** What a resource is, without its desired body: enough to address it on the platform. */
export interface ResourceRef {
  readonly kind: Kind;
  readonly name: string;
  readonly project?: string;
  readonly workspace?: string;
  /** The platform's own id where the API addresses the resource by it (user accountId). */
  readonly id?: string;
  /**
   * A compute instance's `spec.computeType`: its read path takes `?computeType=`, also for the
   * actions that carry no desired manifest (power, delete). Undefined for every other kind.
   */
  readonly computeType?: 'baremetal' | 'k8s';
}

export type ReasonCode =
  | 'absent' // declared in git, missing on the platform
  | 'changed' // git changed since the last apply
  | 'drift' // the platform changed outside git
  | 'not-deployed' // exists but is not (yet) deployed or published
  | 'power-state' // power state differs from the declared one
  | 'requested' // a one-shot request in the manifest has a new value (power reset or cycle)
  | 'removed-from-git' // a managed, unprotected resource no longer declared (prune)
  | 'in-sync'; // noop

export interface Reason {
  readonly code: ReasonCode;
  /** One sentence for people, e.g. "spec.variables[Contract Term] changed from 6 to 12". */
  readonly message: string;
}

/** One field-level difference, from fast-json-patch, with secret values already masked. */
export interface FieldChange {
  readonly op: 'add' | 'remove' | 'replace';
  readonly path: string;
  readonly before?: unknown;
  readonly after?: unknown;
}

export type PowerAction = 'start' | 'stop' | 'Power reset' | 'Power cycle';

interface ActionBase {
  /** Unique within the plan, stable across runs for the same input: `<key>#<type>[#<n>]`. */
  readonly id: string;
  /** Identity key of the resource the action is about. */
  readonly key: string;
  readonly target: ResourceRef;
  readonly reason: Reason;
  readonly changes: readonly FieldChange[];
  /** Ids of actions that must succeed before this one starts (filled by the ordering step). */
  readonly dependsOn: readonly string[];
}

/** The closed set of actions. Every `switch` over `type` ends in an exhaustive `never` check. */
export type Action =
  | (ActionBase & { readonly type: 'create'; readonly desired: Manifest })
  | (ActionBase & { readonly type: 'update'; readonly desired: Manifest })
  | (ActionBase & { readonly type: 'publish'; readonly desired: Manifest }) // VPC deploy, instance publish
  | (ActionBase & { readonly type: 'power'; readonly powerAction: PowerAction })
  | (ActionBase & {
      readonly type: 'assign';
      readonly user: string;
      readonly roles: readonly RoleRef[];
    })
  | (ActionBase & {
      readonly type: 'unassign';
      readonly user: string;
      readonly roles: readonly RoleRef[];
    })
  | (ActionBase & { readonly type: 'add-groups'; readonly groups: readonly GroupRef[] })
  | (ActionBase & { readonly type: 'remove-groups'; readonly groups: readonly GroupRef[] })
  | (ActionBase & { readonly type: 'force-sync'; readonly desired: Manifest })
  | (ActionBase & {
      readonly type: 'controller-update';
      readonly component: 'capi' | 'capg';
      readonly version: string;
    })
  | (ActionBase & {
      readonly type: 'enable-version' | 'disable-version';
      readonly desired: Manifest;
    })
  | (ActionBase & { readonly type: 'delete' })
  | (ActionBase & { readonly type: 'noop' });

export type ActionType = Action['type'];

/** An action as a provider proposes it, before the planner gives it an id and dependencies. */
export type ProposedAction = Action extends infer A
  ? A extends Action
    ? Omit<A, 'id' | 'dependsOn'>
    : never
  : never;

/** The outcome of executing one action, as recorded in the state store and the report. */
export type ActionOutcome =
  | { readonly status: 'succeeded'; readonly elapsedMs: number }
  | {
      readonly status: 'failed';
      readonly elapsedMs: number;
      readonly error: string;
      readonly code: string;
    }
  | { readonly status: 'skipped'; readonly because: string /* id of the failed root action */ }
  | { readonly status: 'not-started' /* interrupted before it began */ };

/** The outcomes of a run by action id, in plan order. */
export type Outcomes = ReadonlyMap<string, ActionOutcome>;

/** Counts for the summary line `Plan: 3 to create, 1 to update, 0 to delete, 12 unchanged`. */
export interface PlanSummary {
  readonly create: number;
  /** Every change to an existing resource that is not a delete (update, publish, power, ...). */
  readonly update: number;
  readonly delete: number;
  readonly unchanged: number;
}
