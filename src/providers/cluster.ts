import type { Action, ProposedAction } from '../model/action.js';
import type { ApiClient } from '../model/api.js';
import type { ManifestOf } from '../model/manifest.js';
import type { LiveObject, Provider, ProviderPorts } from '../model/provider.js';
import { tablePath } from './client/paths.js';
import { planUpsert, unsupported } from './support/actions.js';
import { type Doc, managedBody } from './support/diff.js';
import { kubeList } from './support/list.js';
import { createOwnership, sendDelete } from './support/requests.js';
import { createdAtOf, liveRef, obj, pick, str, wantedByProject } from './support/scope.js';
import { waitUntil } from './support/wait.js';

type ClusterManifest = ManifestOf<'Cluster'>;

/** The v3 clusters collection of a project: a path the spec does not show (the path table). */
const clustersAt = (api: ApiClient, project: string) => tablePath(api, 'clusters', { project });

/** One cluster: a path the spec does not show (the path table). */
export const clusterAt = (api: ApiClient, project: string, name: string) =>
  tablePath(api, 'cluster', { project, name });

/** A cluster's managed form: name, project, description and the whole spec. Pure. */
export function normalizeCluster(item: Doc, infraGroup: string): Doc {
  return {
    apiVersion: str(item.apiVersion) ?? `${infraGroup}/v3`,
    kind: 'Cluster',
    metadata: pick(obj(item.metadata), ['name', 'project', 'description', 'displayName']),
    spec: obj(item.spec) ?? {},
  };
}

/**
 * GKE clusters (v3, `X-API-KEY`): listed per project (the list carries the spec), created and
 * updated by the same POST, deleted asynchronously (waited for until gone).
 */
export const clusterProvider: Provider<'Cluster'> = {
  kind: 'Cluster',

  async observe(scope, ports) {
    const { api } = ports;
    const lists = [...wantedByProject(scope)].map(async ([project, names]) => {
      const items = await kubeList<Doc>(api, {
        ...clustersAt(api, project),
        auth: 'infra',
        operation: `listing clusters of project ${project}`,
      });
      return items.flatMap((item): LiveObject[] => {
        const name = str(obj(item.metadata)?.name);
        if (name === undefined || !names.has(name)) return [];
        const status = str(obj(item.status)?.status);
        return [
          {
            ...liveRef('Cluster', name, project),
            ...createdAtOf(item),
            body: normalizeCluster(item, api.groups.infra),
            ...(status !== undefined ? { status } : {}),
          },
        ];
      });
    });
    return (await Promise.all(lists)).flat();
  },

  plan(input): ProposedAction[] {
    return planUpsert(input, 'cluster', managedBody);
  },

  async execute(action: Action, ports: ProviderPorts) {
    const { api } = ports;
    const project = action.target.project ?? '';
    const name = action.target.name;
    const what = `cluster ${project}/${name}`;
    const read = () =>
      api.request({
        method: 'GET',
        ...clusterAt(api, project, name),
        auth: 'infra',
        operation: `reading ${what}`,
        accept: [404],
      });
    switch (action.type) {
      case 'create':
      case 'update': {
        // Create and update are one POST, so a re-sent create cannot duplicate; the check saves
        // a second write all the same. A create answered 200 (not 201) updated someone's cluster.
        const res = await api.request({
          method: 'POST',
          ...clustersAt(api, project),
          auth: 'infra',
          operation: `${action.type === 'create' ? 'creating' : 'updating'} ${what}`,
          body: managedBody(action.desired as ClusterManifest),
          idempotent: action.type === 'update',
          signal: ports.signal,
          ...(action.type === 'create'
            ? { existsCheck: async () => (await read()).status === 200 }
            : {}),
        });
        return action.type === 'create' ? createOwnership(res, [200]) : {};
      }
      case 'delete':
        await sendDelete(ports, {
          ...clusterAt(api, project, name),
          auth: 'infra',
          what: what,
        });
        await waitUntil(ports, `deletion of ${what}`, async () => {
          const res = await read();
          return {
            done: res.status === 404,
            status: str(obj(obj(res.body)?.status)?.status) ?? 'deleting',
          };
        });
        return {};
      default:
        throw unsupported('Cluster', action);
    }
  },
};
