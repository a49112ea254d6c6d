import type { Action, ProposedAction } from '../../src/model/action.js';
import {
  type LoadedManifest,
  type Manifest,
  type ManifestOf,
  manifestKey,
  PLATCTL_API_VERSION,
} from '../../src/model/manifest.js';

/** A loaded manifest around a document (position is irrelevant here). */
export function loaded<M extends Manifest>(manifest: M): LoadedManifest<M> {
  const source = { file: 'test.yaml', line: 1, col: 1 };
  return { manifest, key: manifestKey(manifest), source, positionOf: () => source };
}

/** A proposed action made executable (the planner's id and dependencies). */
export function act(p: ProposedAction): Action {
  return { ...p, id: `${p.key}#${p.type}`, dependsOn: [] } as Action;
}

export const workspace = (
  over: Partial<ManifestOf<'Workspace'>['metadata']> = {},
): ManifestOf<'Workspace'> => ({
  apiVersion: 'paas.envmgmt.io/v1',
  kind: 'Workspace',
  metadata: {
    name: 'dev',
    project: 'ml',
    dependsOn: [{ kind: 'Service', name: 'vpc' }],
    annotations: { 'platctl.io/prune': 'disabled' },
    ...over,
  },
});

export const service = (cidr = '10.0.0.0/24'): ManifestOf<'Service'> => ({
  apiVersion: 'paas.envmgmt.io/v1',
  kind: 'Service',
  metadata: { name: 'vpc', project: 'ml' },
  spec: {
    serviceProfile: { name: 'vpc', systemCatalog: true },
    serviceType: 'custom',
    variables: [
      { name: 'Default VPC Name', value: 'main' },
      { name: 'Default Subnet CIDR', value: cidr },
    ],
  },
});

export const instance = (term = '6', power?: 'on' | 'off'): ManifestOf<'ComputeInstance'> => ({
  apiVersion: 'paas.envmgmt.io/v1',
  kind: 'ComputeInstance',
  metadata: {
    name: 'gpu-1',
    project: 'ml',
    workspace: 'dev',
    ...(power ? { annotations: { 'platctl.io/power-state': power } } : {}),
  },
  spec: {
    computeType: 'baremetal',
    computeProfile: { name: 'bmaas-h100', systemCatalog: true },
    variables: [
      { name: 'Contract Term', valueType: 'text', value: term },
      { name: 'assign_public_ip', valueType: 'text', value: 'false' },
    ],
  },
});

export const cluster = (nodes = 3): ManifestOf<'Cluster'> => ({
  apiVersion: 'infra.k8smgmt.io/v3',
  kind: 'Cluster',
  metadata: { name: 'gke-1', project: 'ml' },
  spec: {
    type: 'Gke',
    cloudCredentials: 'gcp-credentials',
    blueprint: { name: 'default', version: 'latest' },
    config: { nodePools: [{ name: 'pool', size: nodes }] },
  },
});

export const user = (groups = [{ id: 'grp-ml', name: 'ML Researchers' }]): ManifestOf<'User'> => ({
  apiVersion: PLATCTL_API_VERSION,
  kind: 'User',
  metadata: { name: 'alice@acme.example' },
  spec: {
    first_name: 'Alice',
    last_name: 'A',
    user_type: 'CONSOLE',
    passwordFrom: { env: 'ALICE_PW' },
    groups,
  },
});

export const assignment = (
  roles = [{ id: 'role-admin', name: 'PROJECT_ADMIN' }],
  who = 'alice@acme.example',
): ManifestOf<'ProjectAssignment'> => ({
  apiVersion: PLATCTL_API_VERSION,
  kind: 'ProjectAssignment',
  metadata: { name: 'alice', project: 'ml' },
  spec: { user: who, roles },
});

export const publish = (version = 'v1.0.0', addons?: string[]): ManifestOf<'BlueprintPublish'> => ({
  apiVersion: PLATCTL_API_VERSION,
  kind: 'BlueprintPublish',
  metadata: { name: 'gke-1-stack', project: 'ml' },
  spec: {
    cluster: 'gke-1',
    blueprint: { name: 'ml-stack', version },
    ...(addons ? { addons } : {}),
  },
});

export const version = (enabled = true): ManifestOf<'BlueprintVersion'> => ({
  apiVersion: PLATCTL_API_VERSION,
  kind: 'BlueprintVersion',
  metadata: { name: 'ml-stack-v2', project: 'ml' },
  spec: { blueprint: 'ml-stack', version: 'v2.0.0', enabled },
});

export const controllers = (capi?: string, capg?: string): ManifestOf<'ClusterControllers'> => ({
  apiVersion: PLATCTL_API_VERSION,
  kind: 'ClusterControllers',
  metadata: { name: 'gke-1', project: 'ml' },
  spec: { ...(capi ? { capiVersion: capi } : {}), ...(capg ? { capgVersion: capg } : {}) },
});
