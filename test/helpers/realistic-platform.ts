import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stringify } from 'yaml';
import { DEFAULT_SEED } from '../../src/emulator/seed/default-seed.js';

/**
 * A realistic platform for import and usage tests: `projects` extra projects
 * beside the default seed, and for each one a VPC, two workspaces, a bare-metal H100 box, an L40S
 * dev box kept powered off, a GPU Kubernetes instance, and in every other project a GKE cluster
 * with its blueprint publish and controller versions; users in groups with project roles.
 */
function projectNames(projects: number): string[] {
  return Array.from({ length: projects }, (_, i) => `team-${String(i + 1).padStart(2, '0')}`);
}

/** Writes a seed file with the extra projects and returns its path. */
export function writeSeed(dir: string, projects: number): string {
  const seed = {
    ...DEFAULT_SEED,
    projects: [
      ...DEFAULT_SEED.projects,
      ...projectNames(projects).map((name, i) => ({
        id: `prj-${name}`,
        name,
        description: `Team ${i + 1}`,
        org: 'org-acme',
      })),
    ],
  };
  const file = join(dir, 'seed.yaml');
  writeFileSync(file, stringify(seed));
  return file;
}

const PAAS = 'paas.envmgmt.io/v1';
const PLATCTL = 'platctl.io/v1alpha1';
const groups = {
  platform: { id: 'grp-platform-engineers', name: 'Platform Engineers', type: 'SYSTEM' },
  ml: { id: 'grp-ml-researchers', name: 'ML Researchers', type: 'SYSTEM' },
};
const role = (id: string, name: string) => ({ id, name, scope: 'PROJECT', role_type: 'BASE' });

function projectDocs(project: string, i: number): object[] {
  const net = 20 + i;
  const docs: object[] = [
    {
      apiVersion: PAAS,
      kind: 'Service',
      metadata: { name: `vpc-${project}`, project },
      spec: {
        serviceProfile: { name: 'vpc', systemCatalog: true },
        serviceType: 'custom',
        variables: [
          { name: 'Default VPC Name', value: `${project}-vpc` },
          { name: 'Default Subnet CIDR', value: `10.${net}.0.0/16` },
          { name: 'Default Subnet Gateway', value: `10.${net}.0.1` },
          { name: 'Public IP Enabled', value: i % 2 ? 'True' : 'False' },
        ],
      },
    },
    {
      apiVersion: PAAS,
      kind: 'Workspace',
      metadata: { name: 'inference', project, displayName: 'Inference' },
    },
    {
      apiVersion: PAAS,
      kind: 'Workspace',
      metadata: {
        name: 'research',
        project,
        displayName: 'Research',
        description: 'Experiments; paths like $${HOME}/data are literal text',
      },
    },
    {
      apiVersion: PAAS,
      kind: 'ComputeInstance',
      metadata: { name: 'h100-serve', project, workspace: 'inference' },
      spec: {
        computeType: 'baremetal',
        computeProfile: { name: 'bmaas-h100', systemCatalog: true },
        variables: [
          { name: 'assign_public_ip', valueType: 'text', value: 'false' },
          { name: 'node_os_image', valueType: 'text', value: 'ubuntu-22.04' },
          { name: 'Contract Term', valueType: 'text', value: '12' },
          {
            name: 'Security Policies',
            valueType: 'json',
            value: `[{"source_cidr": "10.${net}.0.0/16", "action": "allow", "application": "ssh", "port": "22", "protocol": "tcp"}]`,
          },
        ],
      },
    },
    {
      apiVersion: PAAS,
      kind: 'ComputeInstance',
      metadata: {
        name: 'l40s-dev',
        project,
        workspace: 'research',
        annotations: { 'platctl.io/power-state': 'off' },
      },
      spec: {
        computeType: 'baremetal',
        computeProfile: { name: 'bmaas-l40s', systemCatalog: true },
        variables: [
          { name: 'assign_public_ip', valueType: 'text', value: 'true' },
          { name: 'Contract Term', valueType: 'text', value: '1' },
        ],
      },
    },
    {
      apiVersion: PAAS,
      kind: 'ComputeInstance',
      metadata: { name: 'k8s-train', project, workspace: 'research' },
      spec: {
        computeType: 'k8s',
        computeProfile: { name: 'gpu-k8s', systemCatalog: true },
        variables: [
          { name: 'Cluster Kubernetes Version', value: 'v1.29.4' },
          { name: 'H100 Worker Nodes', value: String(1 + (i % 3)) },
          { name: 'Master Nodes', value: '3' },
          { name: 'Contract Term', value: '6' },
        ],
      },
    },
    {
      apiVersion: PLATCTL,
      kind: 'ProjectAssignment',
      metadata: { name: `lead-${project}`, project },
      spec: {
        user: `lead-${project}@acme.example`,
        roles: [role('role-project-admin', 'PROJECT_ADMIN')],
      },
    },
    {
      apiVersion: PLATCTL,
      kind: 'BlueprintVersion',
      metadata: { name: 'ml-stack-v2', project },
      spec: { blueprint: 'ml-stack', version: 'v2.0.0', enabled: true },
    },
  ];
  if (i % 2 === 0) docs.push(...clusterDocs(project));
  return docs;
}

function clusterDocs(project: string): object[] {
  return [
    {
      apiVersion: 'infra.k8smgmt.io/v3',
      kind: 'Cluster',
      metadata: { name: 'gke-main', project, description: `GKE of ${project}` },
      spec: {
        type: 'Gke',
        cloudCredentials: 'gcp-credentials',
        blueprint: { name: 'ml-stack', version: 'v1.0.0' },
        config: {
          name: `gke-${project}`,
          project: `acme-${project}`,
          location: { type: 'zonal', zone: 'us-central1-a' },
          controlPlaneVersion: 1.29,
          nodePools: [
            {
              name: 'default-pool',
              size: 3,
              nodeVersion: 1.29,
              machineConfig: { machineType: 'e2-standard-8', bootDiskSize: 100 },
              upgradeSettings: {
                strategy: 'BLUE_GREEN',
                config: { batchNodeCount: 1, batchSoakDuration: '60s' },
              },
            },
          ],
          feature: { enableCloudLogging: true },
        },
      },
    },
    {
      apiVersion: PLATCTL,
      kind: 'BlueprintPublish',
      metadata: { name: 'gke-main-ml-stack', project },
      spec: { cluster: 'gke-main', blueprint: { name: 'ml-stack', version: 'v1.0.0' } },
    },
    {
      apiVersion: PLATCTL,
      kind: 'ClusterControllers',
      metadata: { name: 'gke-main', project },
      spec: { capiVersion: 'v1.6.2', capgVersion: 'v1.5.0' },
    },
  ];
}

function userDocs(projects: readonly string[]): object[] {
  return projects.map((project, i) => ({
    apiVersion: PLATCTL,
    kind: 'User',
    metadata: { name: `lead-${project}@acme.example` },
    spec: {
      first_name: 'Lead',
      last_name: project,
      user_type: i % 4 === 3 ? 'API' : 'CONSOLE',
      passwordFrom: { env: 'PLATCTL_DEMO_PASSWORD' },
      groups: [i % 2 ? groups.ml : groups.platform],
    },
  }));
}

/** Writes the platform's manifests (one file per project, one for users) into `dir`. */
export function writePlatformManifests(dir: string, projects: number): void {
  const names = projectNames(projects);
  const file = (docs: object[]) => docs.map((d) => stringify(d)).join('---\n');
  writeFileSync(join(dir, '00-users.yaml'), file(userDocs(names)));
  names.forEach((p, i) => {
    writeFileSync(join(dir, `${p}.yaml`), file(projectDocs(p, i)));
  });
}
