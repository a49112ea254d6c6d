/**
 * Benchmark: load and validate 10,000 manifest documents.
 *
 *   npx tsx bench/manifests-load.ts [documents=10000] [documentsPerFile=100]
 *
 * Writes a realistic mix of kinds (VPC services, workspaces, bare-metal and GPU Kubernetes
 * instances, users, project assignments) into a temporary directory, runs `loadAndValidate` on it
 * once, and prints the wall and CPU time and the process's peak RSS. The temporary directory is removed.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { loadAndValidate } from '../src/manifests/index.js';

const total = Number(process.argv[2] ?? 10_000);
const perFile = Number(process.argv[3] ?? 100);

/** The i-th document of the generated platform; every document is valid. */
function doc(i: number): string {
  const group = Math.floor(i / 5);
  const project = group % 2 === 0 ? 'platform' : 'ml-research';
  switch (i % 5) {
    case 0:
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

const dir = mkdtempSync(join(tmpdir(), 'platctl-bench-'));
try {
  for (let f = 0; f * perFile < total; f++) {
    const sub = join(dir, `team-${Math.floor(f / 10)}`);
    mkdirSync(sub, { recursive: true });
    const docs: string[] = [];
    for (let i = f * perFile; i < Math.min(total, (f + 1) * perFile); i++) docs.push(doc(i));
    writeFileSync(join(sub, `part-${String(f).padStart(4, '0')}.yaml`), docs.join('---\n'));
  }
  const rssBefore = process.memoryUsage().rss;
  const cpu0 = process.cpuUsage();
  const t0 = performance.now();
  const r = await loadAndValidate({ paths: [dir], env: {} });
  const ms = performance.now() - t0;
  const cpu = process.cpuUsage(cpu0);
  const errors = r.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length > 0 || r.manifests.length !== total) {
    console.error(`unexpected result: ${r.manifests.length} manifests, ${errors.length} errors`);
    console.error(errors.slice(0, 5));
    process.exitCode = 1;
  }
  const peakMb = process.resourceUsage().maxRSS / 1024;
  console.log(
    JSON.stringify({
      documents: total,
      files: Math.ceil(total / perFile),
      wallMs: Math.round(ms),
      // CPU time is steadier than wall time on a shared machine.
      cpuMs: Math.round((cpu.user + cpu.system) / 1000),
      loadAverage: loadavg()[0]?.toFixed(1),
      docsPerSecond: Math.round((total / ms) * 1000),
      peakRssMb: Math.round(peakMb),
      rssBeforeMb: Math.round(rssBefore / 1024 / 1024),
      warnings: r.diagnostics.length - errors.length,
      node: process.version,
      cpu: `${cpus().length} × ${cpus()[0]?.model ?? 'unknown'}`,
    }),
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
