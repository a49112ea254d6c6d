/**
 * The kinds platctl knows and what every manifest's metadata holds: the model's base, which
 * `manifest.ts` (the API's kinds and the union of all) and `governance-kinds.ts` build on.
 */

/** The apiVersion of platctl's own kinds (those the platform has no API for). */
export const PLATCTL_API_VERSION = 'platctl.io/v1alpha1';

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
