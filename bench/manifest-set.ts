/**
 * The generated manifest set the validate benchmarks load: a realistic mix of kinds (VPC services,
 * workspaces, bare-metal and GPU Kubernetes instances, users, project assignments), every document
 * valid, written `perFile` documents to a file, ten files to a `team-N` folder; optionally without
 * VPC services.
 */
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The i-th document of the generated platform; every document is valid. `vpc: false` puts a
 * second workspace where each group's VPC service would be: the set's compute then lives in
 * projects without a declared VPC (one `no-vpc-in-project` warning per project).
 */
export function manifestDocument(i: number, vpc = true): string {
  const group = Math.floor(i / 5);
  const project = group % 2 === 0 ? 'platform' : 'ml-research';
  switch (i % 5) {
    case 0:
      if (!vpc) {
        return `apiVersion: paas.envmgmt.io/v1\nkind: Workspace\nmetadata:\n  name: ws-${group}-b\n  project: ${project}\n`;
      }
      return `apiVersion: paas.envmgmt.io/v1\nkind: Service\nmetadata:\n  name: vpc-${group}\n  project: ${project}\nspec:\n  serviceProfile: {name: vpc, systemCatalog: true}\n  serviceType: custom\n  variables:\n    - {name: Default VPC Name, value: vpc-${group}}\n    - {name: Default Subnet CIDR, value: 10.${group % 250}.0.0/16}\n    - {name: Default Subnet Gateway, value: 10.${group % 250}.0.1}\n    - {name: Public IP Enabled, value: "False"}\n`;
    case 1:
      return `apiVersion: paas.envmgmt.io/v1\nkind: Workspace\nmetadata:\n  name: ws-${group}\n  project: ${project}\n  displayName: Workspace ${group}\n`;
    case 2:
      return `apiVersion: paas.envmgmt.io/v1\nkind: ComputeInstance\nmetadata:\n  name: bm-${group}\n  project: ${project}\n  workspace: ws-${group}\nspec:\n  computeType: baremetal\n  computeProfile: {name: bmaas-h100, systemCatalog: true}\n  variables:\n    - {name: assign_public_ip, valueType: text, value: "false"}\n    - {name: node_os_image, valueType: text, value: ubuntu-22.04}\n    - {name: Contract Term, valueType: text, value: "12"}\n    - name: Security Policies\n      valueType: json\n      value: '[{"source_cidr": "10.0.0.0/8", "action": "allow", "application": "ssh", "port": "22", "protocol": "tcp"}]'\n`;
    case 3:
      return `apiVersion: paas.envmgmt.io/v1\nkind: ComputeInstance\nmetadata:\n  name: k8s-${group}\n  project: ${project}\n  workspace: ws-${group}\n  dependsOn:\n    - {kind: ComputeInstance, name: bm-${group}}\nspec:\n  computeType: k8s\n  computeProfile: {name: gpu-k8s, systemCatalog: true}\n  variables:\n    - {name: Cluster Kubernetes Version, value: v1.29.4}\n    - {name: H100 Worker Nodes, value: "2"}\n    - {name: Contract Term, value: "6"}\n`;
    default:
      return `apiVersion: platctl.io/v1alpha1\nkind: User\nmetadata:\n  name: user-${group}@acme.example\nspec:\n  first_name: User\n  last_name: N${group}\n  user_type: CONSOLE\n  passwordFrom: {env: DEMO_PASSWORD}\n  groups: [{id: grp-ml-researchers, name: ML Researchers, type: SYSTEM}]\n`;
  }
}

/** Names the set a directory holds, so a kept directory is reused only for the same set. */
const MARKER = '.manifest-set.json';

/**
 * Writes `total` documents into `dir` (created), or leaves it as it is when it already holds that
 * set (its marker says so). Refuses a non-empty directory holding something else rather than mix
 * sets. Does file I/O.
 */
export function writeManifestSet(dir: string, total: number, perFile: number, vpc = true): void {
  const want = JSON.stringify({ documents: total, perFile, ...(vpc ? {} : { vpc: false }) });
  const marker = join(dir, MARKER);
  if (existsSync(marker) && readFileSync(marker, 'utf8') === want) return;
  if (existsSync(dir) && readdirSync(dir).length > 0) {
    throw new Error(`${dir} is not empty and holds no set of ${total} × ${perFile}; not written`);
  }
  for (let f = 0; f * perFile < total; f++) {
    const sub = join(dir, `team-${Math.floor(f / 10)}`);
    mkdirSync(sub, { recursive: true });
    const docs: string[] = [];
    for (let i = f * perFile; i < Math.min(total, (f + 1) * perFile); i++) {
      docs.push(manifestDocument(i, vpc));
    }
    writeFileSync(join(sub, `part-${String(f).padStart(4, '0')}.yaml`), docs.join('---\n'));
  }
  writeFileSync(marker, want); // hidden: the loader skips dot files
}
