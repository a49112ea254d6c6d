import type {
  ConditionType,
  ResourceCondition,
} from '../../../src/controller/status/conditions.js';

const AT = '2026-11-25T08:00:00.000Z';

/** Which condition the `i`th resource is in: mostly Ready, a few of each other (deterministic). */
function conditionOf(i: number): ConditionType {
  if (i % 97 === 5) return 'Degraded';
  if (i % 89 === 7) return 'Drifted';
  if (i % 53 === 3) return 'Progressing';
  return 'Ready';
}

/**
 * A platform of `total` resources as the controller's status holds them, in the engine's order:
 * per project a VPC Service, a cluster and its controllers, workspaces and their compute
 * instances (each waiting for its workspace and the VPC), `perProject` resources each; users of
 * no project first. Pure and deterministic, for the browser tests and the dashboard's bench.
 */
export function syntheticConditions(total: number, perProject = 100): ResourceCondition[] {
  const out: ResourceCondition[] = [];
  const add = (
    c: Omit<ResourceCondition, 'condition' | 'reason' | 'lastTransitionTime' | 'order'>,
  ) => {
    const condition = conditionOf(out.length);
    const reason =
      condition === 'Ready'
        ? 'InSync'
        : condition === 'Drifted'
          ? 'Drift'
          : condition === 'Degraded'
            ? 'ActionFailed'
            : 'Applied';
    out.push({ ...c, condition, reason, lastTransitionTime: AT, order: out.length });
  };
  add({ key: 'User/ops@example.com', kind: 'User', name: 'ops@example.com', dependsOn: [] });
  for (let p = 0; out.length < total; p++) {
    const project = `proj-${String(p).padStart(4, '0')}`;
    const vpc = `Service/${project}/vpc`;
    const cluster = `Cluster/${project}/k8s`;
    add({ key: vpc, kind: 'Service', project, name: 'vpc', dependsOn: [] });
    add({ key: cluster, kind: 'Cluster', project, name: 'k8s', dependsOn: [] });
    add({
      key: `ClusterControllers/${project}/k8s`,
      kind: 'ClusterControllers',
      project,
      name: 'k8s',
      dependsOn: [cluster],
    });
    const instances = Math.max(0, perProject - 3);
    for (let w = 0; w * 10 < instances && out.length < total; w++) {
      const workspace = `ws-${w}`;
      const ws = `Workspace/${project}/${workspace}`;
      add({ key: ws, kind: 'Workspace', project, name: workspace, dependsOn: [] });
      for (let i = 0; i < 9 && out.length < total; i++) {
        const name = `gpu-${i}`;
        add({
          key: `ComputeInstance/${project}/${workspace}/${name}`,
          kind: 'ComputeInstance',
          project,
          workspace,
          name,
          dependsOn: [vpc, ws],
        });
      }
    }
  }
  return out.slice(0, total);
}
