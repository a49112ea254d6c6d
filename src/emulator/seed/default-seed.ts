import type { ProfileRecord } from '../lookups.js';
import type { SeedData } from './seed-types.js';

const gpuProfile = (
  name: string,
  kind: 'baremetal' | 'k8s' | 'vm',
  cpu: number,
  gpuModel: string,
  memoryGb: number,
  storageGb: number,
): ProfileRecord => ({
  name,
  kind,
  billable: true,
  region: 'us-central1',
  hardware: {
    cpu_count: cpu,
    cpu_arch: 'x86_64',
    gpu_count: 8,
    gpu_model: gpuModel,
    memory_size_gb: memoryGb,
    storage_size_gb: storageGb,
    storage_type: 'block',
  },
});

/** The built-in seed (docs/api-assumptions.md, "Seed data"). */
export const DEFAULT_SEED: SeedData = {
  partnerId: 'partner-emulator',
  orgs: [
    { id: 'org-acme', name: 'acme' },
    { id: 'org-globex', name: 'globex' },
  ],
  projects: [
    { id: 'prj-default', name: 'default', description: 'Default project', org: 'org-acme' },
    { id: 'prj-platform', name: 'platform', description: 'Platform team', org: 'org-acme' },
    { id: 'prj-ml-research', name: 'ml-research', description: 'ML research', org: 'org-acme' },
    { id: 'prj-globex-default', name: 'globex-default', description: 'Globex', org: 'org-globex' },
  ],
  groups: [
    { id: 'grp-org-admins', name: 'Organization Admins', type: 'SYSTEM' },
    { id: 'grp-platform-engineers', name: 'Platform Engineers', type: 'SYSTEM' },
    { id: 'grp-ml-researchers', name: 'ML Researchers', type: 'SYSTEM' },
  ],
  roles: [
    { id: 'role-project-admin', name: 'PROJECT_ADMIN', scope: 'PROJECT', role_type: 'BASE' },
    { id: 'role-infra-admin', name: 'INFRA_ADMIN', scope: 'PROJECT', role_type: 'BASE' },
    {
      id: 'role-project-read-only',
      name: 'PROJECT_READ_ONLY',
      scope: 'PROJECT',
      role_type: 'BASE',
    },
  ],
  users: [
    {
      id: 'usr-admin',
      username: 'admin@acme.example',
      first_name: 'Acme',
      last_name: 'Admin',
      user_type: 'CONSOLE',
      org: 'org-acme',
      groups: ['grp-org-admins'],
      admin: true,
    },
    // A user with no group and no role, for /docs's examples of the user calls to act on.
    {
      id: 'usr-jane',
      username: 'jane.doe@acme.example',
      first_name: 'Jane',
      last_name: 'Doe',
      user_type: 'CONSOLE',
      org: 'org-acme',
    },
  ],
  profiles: [
    gpuProfile('bmaas-l40s', 'baremetal', 64, 'L40S', 512, 3840),
    gpuProfile('bmaas-h100', 'baremetal', 112, 'H100', 2048, 30720),
    gpuProfile('gpu-k8s', 'k8s', 96, 'H100', 1024, 7680),
    // a virtual machine: only a dialect whose compute types include `vm` can use it
    gpuProfile('small-gpu-vm', 'vm', 16, 'L4', 128, 500),
    {
      name: 'vpc',
      kind: 'service',
      billable: false,
      region: 'us-central1',
      hardware: {
        cpu_count: 0,
        cpu_arch: '',
        gpu_count: 0,
        gpu_model: '',
        memory_size_gb: 0,
        storage_size_gb: 0,
        storage_type: '',
      },
    },
  ],
  cloudcredentials: [{ name: 'gcp-credentials' }],
  blueprints: [
    {
      name: 'default',
      versions: [
        { name: 'v1.0.0', enabled: true },
        { name: 'latest', enabled: true },
      ],
      addons: [],
    },
    {
      name: 'ml-stack',
      versions: [
        { name: 'v1.0.0', enabled: true },
        { name: 'v1.1.0', enabled: true },
        { name: 'v2.0.0', enabled: false },
      ],
      addons: ['gpu-operator', 'prometheus', 'ingress-nginx'],
    },
  ],
};
