import type { Clock } from '../core/clock.js';
import type {
  Kind,
  LoadedManifest,
  Manifest,
  ManifestOf,
  SecretSource,
} from '../manifests/types.js';
import type { Action, PlanDiagnostic, ProposedAction, ResourceRef } from '../reconcile/types.js';
import type { PathTable } from './client/paths.js';

/**
 * One provider per kind (src/providers/<kind>.ts), found through the registry. A provider knows
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
  /** A progress line for people ("waiting for VPC platform/vpc-main: deploying, 40s"). */
  progress(message: string): void;
  /** Resolves a `passwordFrom` reference at execution time; never logged. */
  resolveSecret(source: SecretSource): Promise<string>;
  /** Project name to id (cached per run; the projects list is read once). */
  projectId(projectName: string): Promise<string>;
  /** How long and how often to poll asynchronous operations. */
  readonly wait: { readonly pollMs: number; readonly timeoutMs: number };
}

/** Which header carries the key: v1/v2 endpoints use X-SERVICE-API-KEYID, v3 uses X-API-KEY. */
export type AuthGeneration = 'v1' | 'v2' | 'v3';

export interface ApiRequest {
  readonly method: 'GET' | 'POST' | 'PUT' | 'DELETE';
  /** Absolute path on the platform, groups already substituted (see {@link ApiClient.groups}). */
  readonly path: string;
  readonly query?: Readonly<Record<string, string | number | boolean | undefined>>;
  readonly body?: unknown;
  readonly auth: AuthGeneration;
  /** What is being done, for errors and metrics: "creating workspace ml/dev". */
  readonly operation: string;
  /** Statuses that are answers, not errors (e.g. 404 on a read). Others throw. */
  readonly accept?: readonly number[];
  /**
   * A write the spec makes idempotent (an update or publish by name, a delete, an assignment):
   * after a `500` it is sent again with backoff, like a read. @default false
   */
  readonly idempotent?: boolean;
  /**
   * Set on creates: before a retry after a dropped connection, a timeout or a `500`, call this to
   * learn whether an earlier attempt reached the server; true means do not send again.
   */
  readonly existsCheck?: () => Promise<boolean>;
  /**
   * Statuses that mean success when they answer a re-sent attempt after one that may have reached
   * the server (a publish answered 409 "already deploying" after a dropped connection).
   */
  readonly acceptOnRetry?: readonly number[];
  /** The path with ids replaced by placeholders, for metrics (`/auth/v1/users/{id}/`). */
  readonly route?: string;
  /** Values to remove from any error this request raises (a password sent in the body). */
  readonly secrets?: readonly string[];
  /** Aborts the request and any retry wait. */
  readonly signal?: AbortSignal;
  /**
   * Told of progress before an answer: each attempt as it starts and each retry wait as it
   * begins (the controller's watchdog). Not called for the final answer; must not throw.
   */
  readonly onProgress?: (event: RequestProgress) => void;
}

/** A step of a request still under way, as given to {@link ApiRequest.onProgress}. */
export type RequestProgress =
  | { readonly phase: 'attempt'; readonly attempt: number }
  | { readonly phase: 'backoff'; readonly attempt: number; readonly delayMs: number };

export interface ApiResponse<T = unknown> {
  readonly status: number;
  readonly body: T;
  readonly headers: Readonly<Record<string, string>>;
  /**
   * True when no answer was read but {@link ApiRequest.existsCheck} showed that an earlier attempt
   * of the create reached the server; `status` is then 200 and `body` null.
   */
  readonly recovered?: boolean;
}

/** The one client every request goes through: auth, rate limit, retries, error parsing. */
export interface ApiClient {
  readonly groups: { readonly infra: string; readonly paas: string; readonly billing: string };
  /** The paths the spec does not show, defaults overlaid by the profile (`client/paths.ts`). */
  readonly paths: PathTable;
  request<T = unknown>(req: ApiRequest): Promise<ApiResponse<T>>;
}

export type ProviderRegistry = { readonly [K in Kind]: Provider<K> };

export type { Manifest };
