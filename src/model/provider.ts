import type { Clock } from '../core/clock.js';
import type { Action, ProposedAction, ResourceRef } from './action.js';
import type { ApiClient } from './api.js';
import type { Kind, LoadedManifest, ManifestOf, SecretSource } from './manifest.js';
import type { PlanDiagnostic } from './plan.js';

/**
 * One provider per kind (src/providers/<kind>.ts), found through the registry: the port the
 * engine (src/reconcile/) names and each adapter implements. A provider knows
 * how its kind is read, compared and changed on the platform; the planner and executor know
 * nothing kind-specific.
 */
export interface Provider<K extends Kind = Kind> {
  readonly kind: K;
  /**
   * Reads the live objects of this kind that the run needs: those declared and those in the
   * inventory (I/O). Uses list endpoints where they return what the diff needs, one read per
   * object only where they do not. Objects absent on the platform are simply not returned.
   * Kinds the API cannot read (assignments, publishes, controller versions, version state)
   * return nothing; their planning relies on `lastApplied`.
   */
  observe(scope: ObserveScope<K>, ports: ProviderPorts): Promise<LiveObject[]>;
  /**
   * Pure: the actions that take the platform from `live` (and what was last applied) to
   * `desired`. `desired` undefined means the resource is to be pruned (the planner only asks when
   * pruning is allowed and the resource is owned and unprotected). Returns `[]` when in sync.
   */
  plan(input: PlanInput<K>): ProposedAction[];
  /**
   * Pure: problems that are not actions, e.g. a change the API cannot make (a Service's spec, a
   * User's name). Optional; the planner adds these to `Plan.diagnostics`. `plan()` still returns
   * the actions it can take (none for the impossible change).
   */
  diagnose?(input: PlanInput<K>): PlanDiagnostic[];
  /**
   * Pure, optional: true only when {@link plan} of this desired and live proposes nothing whatever
   * the last-applied manifest is. The planner then plans a noop without reading that manifest (a
   * state store parses it on demand: parsing all of them was a fifth of a no-op plan of 100,000)
   * and without calling `plan`; it still calls {@link diagnose}. False is always a safe answer.
   */
  inSync?(input: InSyncInput<K>): boolean;
  /**
   * Performs one action on the platform (I/O) and waits for asynchronous completion
   * (VPC `deployed`, instance `success`, delete gone), reporting progress. Throws a classified
   * error on failure; must be safe to call again after a dropped connection.
   */
  execute(action: Action, ports: ProviderPorts): Promise<ExecuteResult>;
}

export interface ObserveScope<K extends Kind = Kind> {
  readonly desired: readonly LoadedManifest<ManifestOf<K>>[];
  /** Resources of this kind that platctl manages according to the state store. */
  readonly inventory: readonly ResourceRef[];
  /** Every project named by the desired manifests and the inventory. */
  readonly projects: readonly string[];
  /**
   * Read every object of the kind in `projects` (every user, for users), not only the declared
   * and inventoried ones: what `platctl import` asks. Kinds the API cannot read still return
   * nothing.
   */
  readonly all?: boolean;
}

/** A live object normalized to the manifest's shape, so the diff compares like with like. */
export interface LiveObject {
  readonly key: string;
  readonly ref: ResourceRef;
  /** The managed fields only, in manifest form (no ids, timestamps, status, masked secrets). */
  readonly body: Record<string, unknown>;
  /** The platform's lifecycle status (`deployed`, `success`, `ready`, ...), when it has one. */
  readonly status?: string;
  /** Power state of a compute instance. */
  readonly powerState?: 'on' | 'off';
  /**
   * When the platform says the object was created (epoch ms), where it says so. Used only to
   * prove that a pending create was this state's own (src/reconcile/ownership.ts).
   */
  readonly createdAt?: number;
}

export interface PlanInput<K extends Kind = Kind> {
  readonly key: string;
  readonly desired?: ManifestOf<K>;
  readonly live?: LiveObject;
  /** The manifest as last applied by platctl (three-way diff, and the only truth for readless kinds). */
  readonly lastApplied?: ManifestOf<K>;
}

/** What {@link Provider.inSync} is asked about: a declared resource that exists. */
interface InSyncInput<K extends Kind = Kind> {
  readonly key: string;
  readonly desired: ManifestOf<K>;
  readonly live: LiveObject;
}

export interface ExecuteResult {
  /** The platform's id of the resource after the action (user accountId), to keep in the inventory. */
  readonly id?: string;
  /**
   * Set on a create whose object this state cannot call its own. `found`: the platform answered
   * that the object already existed (a create-or-update POST answered 200, not 201). `unproven`:
   * no answer was read, but an existence check found the object afterwards (a dropped
   * connection); the pending record stays for the next run to judge by the creation time.
   */
  readonly ownership?: 'found' | 'unproven';
}

/** The narrow I/O a provider may use; all of it is injected. */
export interface ProviderPorts {
  readonly api: ApiClient;
  readonly clock: Clock;
  readonly signal: AbortSignal;
  /**
   * A progress line for people ("waiting for VPC platform/vpc-main: deploying, 40s"), with the
   * wait's typical duration when the platform has one (`model/typical-waits.ts`).
   */
  progress(message: string, expectedMs?: number): void;
  /** Resolves a `passwordFrom` reference at execution time; never logged. */
  resolveSecret(source: SecretSource): Promise<string>;
  /** Project name to id (cached per run; the projects list is read once). */
  projectId(projectName: string): Promise<string>;
  /** How long and how often to poll asynchronous operations. */
  readonly wait: { readonly pollMs: number; readonly timeoutMs: number };
}

export type ProviderRegistry = { readonly [K in Kind]: Provider<K> };

/**
 * The names of the compute or service profiles a project may use, where the platform can list
 * them (the dialect's `profileReads`): plan checks a manifest's profile against them.
 */
export type ProfileNames = (
  project: string,
  kind: 'compute' | 'service',
) => Promise<ReadonlySet<string>>;
