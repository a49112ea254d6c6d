/**
 * The manifest model: what a loaded, schema-valid, variable-substituted document looks like.
 *
 * The API's own resources (Cluster, Service, Workspace, ComputeInstance) keep the API's envelope so
 * a user can paste what the API documents; platctl-only fields live in `metadata.dependsOn` and
 * `metadata.annotations` and are stripped before anything is sent. The other kinds are platctl's
 * own, under {@link PLATCTL_API_VERSION}. The JSON Schemas in `schemas/` are the strict truth; these
 * types are the shape the engine relies on after validation.
 */
export {
  KINDS,
  type Kind,
  type ManifestRef,
  type Metadata,
  PLATCTL_API_VERSION,
  type PlatctlKind,
} from './kinds.js';

import type {
  ChangeWindowManifest,
  PolicyManifest,
  PowerScheduleManifest,
} from './governance-kinds.js';
import type { Kind, Metadata, PLATCTL_API_VERSION } from './kinds.js';

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
  // joined, not concatenated: a join is one flat string, where `+=` and a template made a chain
  // of concatenations that V8 flattens into a copy once the key is hashed, both then held (at
  // 100,000 resources ≈ 490,000 concatenations beside 380,000 flat copies, 34 MB, through an
  // idle run). `join` converts each part as `String` does, null and undefined as ''
  const parts: unknown[] = [ref.kind];
  if (ref.project !== undefined) parts.push(ref.project);
  if (ref.workspace !== undefined) parts.push(ref.workspace);
  parts.push(ref.name);
  return parts.join('/');
}

/** The identity key of a manifest. Pure. */
export function manifestKey(m: Manifest): string {
  const { name, project, workspace } = m.metadata;
  return identityKey({ kind: m.kind, name, project, workspace });
}
