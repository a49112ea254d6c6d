/**
 * The manifest model: what a loaded, schema-valid, variable-substituted document looks like.
 *
 * The API's own resources (Cluster, Service, Workspace, ComputeInstance) keep the API's envelope so
 * a user can paste what the API documents; platctl-only fields live in `metadata.dependsOn` and
 * `metadata.annotations` and are stripped before anything is sent. The other kinds are platctl's
 * own, under {@link PLATCTL_API_VERSION}. The JSON Schemas in `schemas/` are the strict truth; these
 * types are the shape the engine relies on after validation.
 */
export const PLATCTL_API_VERSION = 'platctl.io/v1alpha1';

/** Annotation that protects a resource from pruning: `platctl.io/prune: disabled`. */
export const PRUNE_ANNOTATION = 'platctl.io/prune';
/** Desired power state of a ComputeInstance: `platctl.io/power-state: "on" | "off"` (default on). */
export const POWER_ANNOTATION = 'platctl.io/power-state';
/**
 * One-shot power requests of a ComputeInstance: a token (a timestamp, say) performed once per new
 * value, like `kubectl rollout restart`. The value last applied is kept in the state store.
 */
export const POWER_RESET_ANNOTATION = 'platctl.io/power-reset';
export const POWER_CYCLE_ANNOTATION = 'platctl.io/power-cycle';
/** `platctl.io/deploy: "false"`: a ComputeInstance created (and updated) but not published. */
export const DEPLOY_ANNOTATION = 'platctl.io/deploy';
/**
 * A one-off exception to a PowerSchedule: `platctl.io/keep-on-until: <RFC 3339>` keeps the
 * instance on until then, whatever its schedule says (docs/governance.md).
 */
export const KEEP_ON_UNTIL_ANNOTATION = 'platctl.io/keep-on-until';

type ApiKind = 'Cluster' | 'Service' | 'Workspace' | 'ComputeInstance';
export type PlatctlKind =
  | 'User'
  | 'ProjectAssignment'
  | 'BlueprintPublish'
  | 'BlueprintVersion'
  | 'ClusterControllers'
  | 'Policy'
  | 'PowerSchedule'
  | 'ChangeWindow';
export type Kind = ApiKind | PlatctlKind;

export const KINDS: readonly Kind[] = [
  'User',
  'Cluster',
  'Service',
  'Workspace',
  'ComputeInstance',
  'ProjectAssignment',
  'BlueprintVersion',
  'BlueprintPublish',
  'ClusterControllers',
  'Policy',
  'PowerSchedule',
  'ChangeWindow',
];

/** A reference to another manifest; `project` and `workspace` default to the referrer's. */
export interface ManifestRef {
  kind: Kind;
  name: string;
  project?: string;
  workspace?: string;
}

export interface Metadata {
  name: string;
  project?: string;
  workspace?: string;
  description?: string;
  displayName?: string;
  /** Labels of the resource on the platform (API kinds only). */
  labels?: Record<string, string>;
  dependsOn?: ManifestRef[];
  annotations?: Record<string, string>;
}

interface Variable {
  name: string;
  value: string;
  valueType?: 'text' | 'json';
  /** How the vendor's console presents it (rafay dialect); sent as written. */
  options?: Record<string, unknown>;
}

interface ClusterManifest {
  apiVersion: string; // `{infra_group}/v3`
  kind: 'Cluster';
  metadata: Metadata & { project: string };
  spec: Record<string, unknown> & {
    type: string;
    cloudCredentials: string;
    blueprint: { name: string; version: string };
  };
}

interface ServiceManifest {
  apiVersion: string; // `{paas_group}/v1`
  kind: 'Service';
  metadata: Metadata & { project: string };
  spec: {
    serviceProfile: { name: string; systemCatalog?: boolean };
    serviceType: string;
    variables: Variable[];
  };
}

interface WorkspaceManifest {
  apiVersion: string;
  kind: 'Workspace';
  metadata: Metadata & { project: string };
  spec?: Record<string, never>;
}

interface ComputeInstanceManifest {
  apiVersion: string;
  kind: 'ComputeInstance';
  metadata: Metadata & { project: string; workspace: string };
  spec: {
    /** `vm` is the rafay dialect's only. */
    computeType: 'baremetal' | 'k8s' | 'vm';
    computeProfile: { name: string; systemCatalog?: boolean };
    variables: Variable[];
    /** The rafay dialect's fields (docs/dialects.md). */
    datacenter?: { name: string };
    storageDetails?: Record<string, unknown>;
  };
}

/** Where a secret comes from at apply time; the value itself is never in a manifest or a plan. */
export type SecretSource = { env: string } | { file: string };

export interface GroupRef {
  id: string;
  name: string;
  type?: 'SYSTEM';
}

/** A local user. `metadata.name` is the username (an e-mail address). */
export interface UserManifest {
  apiVersion: typeof PLATCTL_API_VERSION;
  kind: 'User';
  metadata: Metadata;
  spec: {
    first_name: string;
    last_name: string;
    user_type: 'CONSOLE' | 'API';
    passwordFrom: SecretSource;
    groups?: GroupRef[];
  };
}

export interface RoleRef {
  id: string;
  name: string;
  scope?: 'PROJECT';
  role_type?: 'BASE' | 'CUSTOM';
}

/** A user's roles in `metadata.project`. */
interface ProjectAssignmentManifest {
  apiVersion: typeof PLATCTL_API_VERSION;
  kind: 'ProjectAssignment';
  metadata: Metadata & { project: string };
  spec: { user: string; roles: RoleRef[] };
}

/** Publish a blueprint version to a cluster of `metadata.project`, force-syncing add-ons. */
interface BlueprintPublishManifest {
  apiVersion: typeof PLATCTL_API_VERSION;
  kind: 'BlueprintPublish';
  metadata: Metadata & { project: string };
  spec: {
    cluster: string;
    blueprint: { name: string; version: string };
    /** Add-ons to force-sync; omitted or empty means all. */
    addons?: string[];
    /** The API's `metadata.forceSync`: false publishes without syncing add-ons. @default true */
    forceSync?: boolean;
  };
}

/** Whether a blueprint version may be used in `metadata.project`. */
interface BlueprintVersionManifest {
  apiVersion: typeof PLATCTL_API_VERSION;
  kind: 'BlueprintVersion';
  metadata: Metadata & { project: string };
  spec: { blueprint: string; version: string; enabled: boolean };
}

/** Desired CAPI/CAPG controller versions of the existing cluster named `metadata.name`. */
interface ClusterControllersManifest {
  apiVersion: typeof PLATCTL_API_VERSION;
  kind: 'ClusterControllers';
  metadata: Metadata & { project: string };
  spec: { capiVersion?: string; capgVersion?: string };
}

/** What a policy rule's effect is when its expression is false (docs/governance.md). */
export type PolicyEffect = 'deny' | 'warn' | 'require-approval';

/** One rule of a Policy: which manifests it looks at, the CEL that must hold, and what else. */
export interface PolicyRule {
  name: string;
  match?: { kinds?: Kind[]; projects?: string[]; files?: string[] };
  expression: string;
  effect: PolicyEffect;
  message?: string;
}

/** Rules checked at plan; platctl-only, never sent to the platform. */
export interface PolicyManifest {
  apiVersion: typeof PLATCTL_API_VERSION;
  kind: 'Policy';
  metadata: Metadata;
  spec: { rules: PolicyRule[] };
}

/** A day of the week as schedules write it. */
export type Weekday = 'Mon' | 'Tue' | 'Wed' | 'Thu' | 'Fri' | 'Sat' | 'Sun';

/**
 * A time the selected instances are on: from `start` to `stop` (`HH:MM`, the zone's wall clock;
 * `stop` may be `24:00`) on each of `days`; a `stop` not after `start` ends on the next day.
 */
export interface PowerPeriod {
  days: Weekday[];
  start: string;
  stop: string;
}

/** Which compute instances a schedule powers: every criterion given must hold (lists: any of). */
export interface PowerSelector {
  labels?: Record<string, string>;
  /** Names, or globs with `*`. */
  names?: string[];
  workspaces?: string[];
  projects?: string[];
}

/** Compute instances on during its periods and off outside them; platctl-only. */
export interface PowerScheduleManifest {
  apiVersion: typeof PLATCTL_API_VERSION;
  kind: 'PowerSchedule';
  metadata: Metadata;
  spec: { timeZone: string; periods: PowerPeriod[]; selector: PowerSelector };
}

/** The actions a change window governs (docs/governance.md). */
export type WindowActionClass = 'delete' | 'controller-update' | 'power' | 'create';

/** A weekly period: on `days` (every day when absent) from `start` to `stop` (`HH:MM`). */
export interface WindowPeriod {
  days?: Weekday[];
  start: string;
  /** At or before `start`: the period runs past midnight into the next day. */
  stop: string;
}

/**
 * When the governed actions of the selected projects may run (`allow`) or may not (`deny`), in
 * an IANA time zone; platctl-only, never sent to the platform.
 */
export interface ChangeWindowManifest {
  apiVersion: typeof PLATCTL_API_VERSION;
  kind: 'ChangeWindow';
  metadata: Metadata;
  spec: {
    window: 'allow' | 'deny';
    actions: WindowActionClass[];
    /** Absent: every project (and what has none, users). */
    projects?: string[];
    timeZone: string;
    periods?: WindowPeriod[];
    /** One-off ranges: `YYYY-MM-DD` or `YYYY-MM-DDTHH:MM`; a date-only `to` includes that day. */
    dates?: { from: string; to: string }[];
  };
}

export type Manifest =
  | ClusterManifest
  | ServiceManifest
  | WorkspaceManifest
  | ComputeInstanceManifest
  | UserManifest
  | ProjectAssignmentManifest
  | BlueprintPublishManifest
  | BlueprintVersionManifest
  | ClusterControllersManifest
  | PolicyManifest
  | PowerScheduleManifest
  | ChangeWindowManifest;

export type ManifestOf<K extends Kind> = Extract<Manifest, { kind: K }>;

/** Where a node came from. Lines and columns are 1-based. */
export interface SourcePosition {
  file: string;
  line: number;
  col: number;
}

/** A manifest as the loader returns it: the document, its identity and its provenance. */
export interface LoadedManifest<M extends Manifest = Manifest> {
  manifest: M;
  /** The identity key, see {@link identityKey}. */
  key: string;
  /**
   * The file the document came from (as `source.file`), known without computing a position.
   * Undefined only from test doubles and callers that build manifests themselves.
   */
  readonly file?: string;
  /** Position of the document's first line (found on first use: may re-parse its file). */
  source: SourcePosition;
  /**
   * Position of the node at a JSON path such as `['spec', 'variables', 2, 'value']`; falls back to
   * the nearest ancestor that has one, then to {@link source}.
   */
  positionOf(path: readonly (string | number)[]): SourcePosition;
}

/**
 * The one identity key of a resource: `Kind/project[/workspace]/name`, or `Kind/name` for kinds
 * without a project (User). Desired and live objects are paired by this key. Pure.
 */
export function identityKey(ref: {
  kind: Kind;
  name: string;
  project?: string | undefined;
  workspace?: string | undefined;
}): string {
  // concatenated, not an array joined: the loader computes it several times per document; `part`
  // converts as `join` did (null and undefined as '')
  let key = part(ref.kind);
  if (ref.project !== undefined) key += `/${part(ref.project)}`;
  if (ref.workspace !== undefined) key += `/${part(ref.workspace)}`;
  return `${key}/${part(ref.name)}`;
}

const part = (v: unknown): string => (v === null || v === undefined ? '' : String(v));

/** The identity key of a manifest. Pure. */
export function manifestKey(m: Manifest): string {
  const { name, project, workspace } = m.metadata;
  return identityKey({ kind: m.kind, name, project, workspace });
}
