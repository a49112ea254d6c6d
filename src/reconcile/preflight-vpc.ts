import type { Action } from '../model/action.js';
import type { LoadedManifest } from '../model/manifest.js';
import type { Plan, PlanDiagnostic } from '../model/plan.js';

/**
 * The projects among `projects` where the platform has a VPC Service deployed or deploying (I/O:
 * one list of services per project). Rejects when a list cannot be read.
 */
export type VpcProjects = (projects: readonly string[]) => Promise<ReadonlySet<string>>;

/** The actions that deploy a compute instance (the platform answers 409 without a VPC). */
const deploys = (a: Action) =>
  a.target.kind === 'ComputeInstance' && (a.type === 'create' || a.type === 'publish');

/**
 * Compute the plan deploys in a project where neither git declares a VPC Service nor the platform
 * has one deployed or deploying (I/O through `vpcProjects`, only for projects git declares no
 * VPC in): one error per such project, at its first instance's `metadata.project`, since
 * deploying would fail with 409 and leave the instance created but never deployed. A project
 * whose services cannot be read gets a warning instead: the check could not be made.
 */
export async function checkVpcs(
  plan: Plan,
  loaded: ReadonlyMap<string, LoadedManifest>,
  vpcProjects: VpcProjects,
): Promise<PlanDiagnostic[]> {
  // a plan that deploys nothing (a no-op plan) needs no walk of every manifest
  const deploying = plan.actions.filter(deploys);
  if (deploying.length === 0) return [];
  const declared = new Set<string | undefined>();
  for (const m of loaded.values()) {
    if (m.manifest.kind === 'Service') declared.add(m.manifest.metadata.project);
  }
  const byProject = new Map<string, LoadedManifest[]>();
  for (const a of deploying) {
    const project = a.target.project;
    if (project === undefined || declared.has(project)) continue;
    const m = loaded.get(a.key);
    if (!m) continue;
    const list = byProject.get(project) ?? [];
    if (!list.includes(m)) list.push(m);
    byProject.set(project, list);
  }
  if (byProject.size === 0) return [];
  let live: ReadonlySet<string>;
  try {
    live = await vpcProjects([...byProject.keys()].sort());
  } catch (err) {
    const why = err instanceof Error ? err.message : String(err);
    return [...byProject].map(([project, [first]]) => ({
      severity: 'warning',
      key: first!.key,
      message: `could not check for a VPC in project ${project}: ${why}`,
    }));
  }
  return [...byProject]
    .filter(([project]) => !live.has(project))
    .map(([project, instances]) => {
      const first = instances[0]!;
      const at = first.positionOf(['metadata', 'project']);
      const what =
        instances.length === 1
          ? 'deploying this compute instance would fail (409)'
          : `deploying its ${instances.length} compute instances (this one first) would fail (409)`;
      return {
        severity: 'error',
        key: first.key,
        message: `project ${project} has no VPC Service deployed on the platform and none is declared: ${what}; declare a VPC Service in project ${project}`,
        file: at.file,
        line: at.line,
        col: at.col,
      };
    });
}
