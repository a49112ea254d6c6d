/**
 * The manifests of the controller suites' test platform (project `platform`) as the git remote
 * holds them, and the API paths they create: text only, no I/O.
 */

export const WORKSPACES = '/apis/paas.envmgmt.io/v1/projects/platform/workspaces';

/** A workspace manifest in project `platform`. */
export function workspaceYaml(name: string, description: string): string {
  return [
    'apiVersion: paas.envmgmt.io/v1',
    'kind: Workspace',
    'metadata:',
    `  name: ${name}`,
    '  project: platform',
    `  description: ${description}`,
    '',
  ].join('\n');
}

/** The path of a compute instance of project `platform`. */
export function instancePath(workspace: string, name: string): string {
  return `/apis/paas.envmgmt.io/v1/projects/platform/workspaces/${workspace}/computeinstances/${name}`;
}

/** A bare-metal compute instance manifest in project `platform`. */
export function instanceYaml(workspace: string, name: string): string {
  return [
    'apiVersion: paas.envmgmt.io/v1',
    'kind: ComputeInstance',
    'metadata:',
    `  name: ${name}`,
    '  project: platform',
    `  workspace: ${workspace}`,
    'spec:',
    '  computeType: baremetal',
    '  computeProfile:',
    '    name: bmaas-l40s',
    '    systemCatalog: true',
    '  variables:',
    '    - name: node_os_image',
    '      valueType: text',
    '      value: ubuntu-22.04',
    '    - name: Contract Term',
    '      valueType: text',
    '      value: "1"',
    '',
  ].join('\n');
}

/** The VPC service of project `platform`: compute instances publish only once it is deployed. */
export const VPC_YAML = [
  'apiVersion: paas.envmgmt.io/v1',
  'kind: Service',
  'metadata:',
  '  name: vpc-platform',
  '  project: platform',
  'spec:',
  '  serviceProfile:',
  '    name: vpc',
  '    systemCatalog: true',
  '  serviceType: custom',
  '  variables:',
  '    - name: Default VPC Name',
  '      value: platform-vpc',
  '    - name: Default Subnet CIDR',
  '      value: 10.10.0.0/16',
  '    - name: Default Subnet Gateway',
  '      value: 10.10.0.1',
  '    - name: Public IP Enabled',
  '      value: "False"',
  '',
].join('\n');
