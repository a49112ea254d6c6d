import type { ApiClient } from '../model/api.js';
import type { ManifestOf } from '../model/manifest.js';
import type { ObserveScope } from '../model/provider.js';
import type { Doc } from './support/diff.js';
import { kubeList, seg } from './support/list.js';
import { obj, str, wantedByProject } from './support/scope.js';

type ComputeType = ManifestOf<'ComputeInstance'>['spec']['computeType'];

/** An instance a list named, to be read in full. */
export interface ListedInstance {
  readonly project: string;
  readonly workspace: string;
  readonly name: string;
  /** The type it was listed under; undefined from a list of every type (per workspace). */
  readonly computeType?: ComputeType;
}

const projectPath = (api: ApiClient, p: string) => `/apis/${api.groups.paas}/v1/projects/${seg(p)}`;

/**
 * The instances in scope that exist, by the dialect's list (I/O): per project and compute type
 * (`spec`), or per workspace (`rafay`, whose only instance list that is; the workspaces are the
 * ones declared or owned, or all of the project's when reading everything).
 */
export async function listInstances(
  api: ApiClient,
  scope: ObserveScope<'ComputeInstance'>,
  types: ReadonlyMap<string, ReadonlySet<ComputeType>>,
): Promise<ListedInstance[]> {
  const wanted = wantedByProject(scope);
  const keep = (l: ListedInstance) => wanted.get(l.project)?.has(`${l.workspace}/${l.name}`);
  if (api.dialect.instanceList === 'project') {
    const jobs = [...types].flatMap(([p, ofType]) =>
      [...ofType].map(async (computeType) => {
        const items = await kubeList<Doc>(api, {
          path: `${projectPath(api, p)}/computeinstances`,
          route: '/apis/{paas}/v1/projects/{project}/computeinstances',
          query: { computeType },
          auth: 'paas',
          operation: `listing ${computeType} compute instances of project ${p}`,
        });
        return items.map((i) => listed(i, p, computeType)).filter(keep);
      }),
    );
    return (await Promise.all(jobs)).flat();
  }
  const jobs = (await workspacesInScope(api, scope)).map(async ([p, w]) => {
    const items = await kubeList<Doc>(api, {
      path: `${projectPath(api, p)}/workspaces/${seg(w)}/computeinstances`,
      route: '/apis/{paas}/v1/projects/{project}/workspaces/{workspace}/computeinstances',
      auth: 'paas',
      operation: `listing the compute instances of workspace ${p}/${w}`,
      accept: [404], // a workspace not created yet holds none
    });
    return items.map((i) => listed(i, p)).filter(keep);
  });
  return (await Promise.all(jobs)).flat();
}

function listed(item: Doc, project: string, computeType?: ComputeType): ListedInstance {
  const m = obj(item.metadata) ?? {};
  const type = str(obj(item.spec)?.computeType) as ComputeType | undefined;
  return {
    project: str(m.project) ?? project,
    workspace: String(m.workspace),
    name: String(m.name),
    ...((computeType ?? type) ? { computeType: computeType ?? type } : {}),
  };
}

/** `[project, workspace]` pairs to list: declared, owned, or every workspace when reading all. */
async function workspacesInScope(
  api: ApiClient,
  scope: ObserveScope<'ComputeInstance'>,
): Promise<[project: string, workspace: string][]> {
  const pairs = new Map<string, [string, string]>();
  const add = (p: string | undefined, w: string | undefined) => {
    if (p !== undefined && w !== undefined) pairs.set(`${p}/${w}`, [p, w]);
  };
  for (const d of scope.desired) add(d.manifest.metadata.project, d.manifest.metadata.workspace);
  for (const r of scope.inventory) if (r.kind === 'ComputeInstance') add(r.project, r.workspace);
  if (scope.all) {
    const lists = scope.projects.map(async (p) => {
      const items = await kubeList<Doc>(api, {
        path: `${projectPath(api, p)}/workspaces`,
        route: '/apis/{paas}/v1/projects/{project}/workspaces',
        auth: 'paas',
        operation: `listing workspaces of project ${p}`,
      });
      for (const i of items) add(p, str(obj(i.metadata)?.name));
    });
    await Promise.all(lists);
  }
  return [...pairs.values()];
}
