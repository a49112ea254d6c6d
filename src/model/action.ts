import type { GroupRef, Kind, Manifest, RoleRef } from './manifest.js';

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
  readonly computeType?: 'baremetal' | 'k8s' | 'vm';
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

interface Reason {
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
