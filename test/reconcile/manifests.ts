import type { Manifest } from '../../src/model/manifest.js';

/** Small valid manifests for engine tests. */
export const m = {
  workspace: (project: string, name: string): Manifest => ({
    apiVersion: 'paas.envmgmt.io/v1',
    kind: 'Workspace',
    metadata: { name, project },
  }),
  service: (project: string, name: string): Manifest => ({
    apiVersion: 'paas.envmgmt.io/v1',
    kind: 'Service',
    metadata: { name, project },
    spec: { serviceProfile: { name: 'vpc' }, serviceType: 'custom', variables: [] },
  }),
  instance: (project: string, workspace: string, name: string, extra = {}): Manifest => ({
    apiVersion: 'paas.envmgmt.io/v1',
    kind: 'ComputeInstance',
    metadata: { name, project, workspace, ...extra },
    spec: { computeType: 'baremetal', computeProfile: { name: 'bmaas-l40s' }, variables: [] },
  }),
  user: (name: string): Manifest => ({
    apiVersion: 'platctl.io/v1alpha1',
    kind: 'User',
    metadata: { name },
    spec: { first_name: 'A', last_name: 'B', user_type: 'CONSOLE', passwordFrom: { env: 'PW' } },
  }),
  assignment: (project: string, name: string, user: string): Manifest => ({
    apiVersion: 'platctl.io/v1alpha1',
    kind: 'ProjectAssignment',
    metadata: { name, project },
    spec: { user, roles: [{ id: 'role-project-admin', name: 'PROJECT_ADMIN' }] },
  }),
  cluster: (project: string, name: string): Manifest => ({
    apiVersion: 'infra.k8smgmt.io/v3',
    kind: 'Cluster',
    metadata: { name, project },
    spec: {
      type: 'Gke',
      cloudCredentials: 'gcp',
      blueprint: { name: 'default', version: 'latest' },
    },
  }),
  publish: (project: string, name: string, cluster: string, version = 'v1.1.0'): Manifest => ({
    apiVersion: 'platctl.io/v1alpha1',
    kind: 'BlueprintPublish',
    metadata: { name, project },
    spec: { cluster, blueprint: { name: 'ml-stack', version } },
  }),
  version: (project: string, name: string, version: string): Manifest => ({
    apiVersion: 'platctl.io/v1alpha1',
    kind: 'BlueprintVersion',
    metadata: { name, project },
    spec: { blueprint: 'ml-stack', version, enabled: true },
  }),
  controllers: (project: string, name: string): Manifest => ({
    apiVersion: 'platctl.io/v1alpha1',
    kind: 'ClusterControllers',
    metadata: { name, project },
    spec: { capiVersion: 'v1.7.0', capgVersion: 'v1.6.0' },
  }),
};
