import type { Action, ProposedAction } from '../model/action.js';
import type { ApiClient } from '../model/api.js';
import type { ManifestOf } from '../model/manifest.js';
import type {
  ExecuteResult,
  LiveObject,
  ObserveScope,
  Provider,
  ProviderPorts,
} from '../model/provider.js';
import { planUpsert, unsupported } from './support/actions.js';
import { type Doc, managedBody } from './support/diff.js';
import { identicalManaged } from './support/identical.js';
import { kubeList, seg } from './support/list.js';
import { createOwnership, sendDelete } from './support/requests.js';
import { liveObject, liveRef, obj, pick, str, wantedByProject } from './support/scope.js';

type WorkspaceManifest = ManifestOf<'Workspace'>;

const workspaces = (api: ApiClient, project: string) =>
  `/apis/${api.groups.paas}/v1/projects/${seg(project)}/workspaces`;
const ROUTE = '/apis/{paas}/v1/projects/{project}/workspaces';

/** A workspace's managed form: name, project, displayName, description. Pure. */
export function normalizeWorkspace(item: Doc, paasGroup: string): Doc {
  return {
    apiVersion: str(item.apiVersion) ?? `${paasGroup}/v1`,
    kind: 'Workspace',
    metadata: pick(obj(item.metadata), ['name', 'project', 'displayName', 'description', 'labels']),
  };
}

/** The compared form of a workspace manifest: an empty `spec` says nothing. */
function body(m: WorkspaceManifest): Doc {
  const b = managedBody(m);
  delete b.spec;
  return b;
}

/** What {@link body} deletes from the managed body. */
const WITHOUT_SPEC: ReadonlySet<string> = new Set(['spec']);

/** Workspaces: listed per project; created and updated by the same POST; deleted synchronously. */
export const workspaceProvider: Provider<'Workspace'> = {
  kind: 'Workspace',

  async observe(scope: ObserveScope<'Workspace'>, ports: ProviderPorts): Promise<LiveObject[]> {
    const { api } = ports;
    const lists = [...wantedByProject(scope)].map(async ([project, names]) => {
      const items = await kubeList<Doc>(api, {
        path: workspaces(api, project),
        route: ROUTE,
        auth: 'paas',
        operation: `listing workspaces of project ${project}`,
      });
      return items.flatMap((item): LiveObject[] => {
        const name = str(obj(item.metadata)?.name);
        if (name === undefined || !names.has(name)) return [];
        const id = liveRef('Workspace', name, project, undefined, names.get(name));
        return [liveObject(id, item, normalizeWorkspace(item, api.groups.paas))];
      });
    });
    return (await Promise.all(lists)).flat();
  },

  plan(input): ProposedAction[] {
    return planUpsert(input, 'workspace', body);
  },

  // upsertInSync(input, body), read in place: no copy of each manifest's body to compare it
  inSync(input): boolean {
    return identicalManaged(input.desired, input.live.body, WITHOUT_SPEC);
  },

  async execute(action: Action, ports: ProviderPorts): Promise<ExecuteResult> {
    const { api } = ports;
    const project = action.target.project ?? '';
    const name = action.target.name;
    const what = `workspace ${project}/${name}`;
    switch (action.type) {
      case 'create':
      case 'update': {
        const res = await api.request({
          method: 'POST',
          path: workspaces(api, project),
          route: ROUTE,
          auth: 'paas',
          operation: `${action.type === 'create' ? 'creating' : 'updating'} ${what}`,
          body: body(action.desired as WorkspaceManifest),
          idempotent: action.type === 'update',
          signal: ports.signal,
          ...(action.type === 'create'
            ? {
                query: { 'fail-on-exists': true },
                existsCheck: async () =>
                  (
                    await api.request({
                      method: 'GET',
                      path: `${workspaces(api, project)}/${seg(name)}`,
                      route: `${ROUTE}/{name}`,
                      auth: 'paas',
                      operation: `reading ${what}`,
                      accept: [404],
                    })
                  ).status === 200,
              }
            : {}),
        });
        return action.type === 'create' ? createOwnership(res) : {};
      }
      case 'delete':
        await sendDelete(ports, {
          path: `${workspaces(api, project)}/${seg(name)}`,
          route: `${ROUTE}/{name}`,
          auth: 'paas',
          what: what,
        });
        return {};
      default:
        throw unsupported('Workspace', action);
    }
  },
};
