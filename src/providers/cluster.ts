import type { Action, ProposedAction } from '../model/action.js';
import type { ApiClient } from '../model/api.js';
import type { ManifestOf } from '../model/manifest.js';
import type { LiveObject, Provider, ProviderPorts } from '../model/provider.js';
import { tablePath } from './client/paths.js';
import {
  clusterManagedBody,
  clusterPhase,
  clusterWireBody,
  normalizeCluster,
  versionsAsText,
} from './cluster-wire.js';
import { planUpsert, unsupported, upsertInSync } from './support/actions.js';
import type { Doc } from './support/diff.js';
import { kubeList } from './support/list.js';
import { createOwnership, sendDelete } from './support/requests.js';
import { liveObject, liveRef, obj, str, wantedByProject } from './support/scope.js';
import { waitUntil } from './support/wait.js';

type ClusterManifest = ManifestOf<'Cluster'>;

/** The v3 clusters collection of a project: a path the spec does not show (the path table). */
const clustersAt = (api: ApiClient, project: string) => tablePath(api, 'clusters', { project });

/** One cluster: a path the spec does not show (the path table). */
export const clusterAt = (api: ApiClient, project: string, name: string) =>
  tablePath(api, 'cluster', { project, name });

/**
 * GKE clusters (v3): listed per project (the list carries the spec), created and updated by the
 * same POST, deleted asynchronously (waited for until gone). Where the dialect's create is an
 * apply that answers 200 either way, a read first tells whose cluster it is.
 */
export const clusterProvider: Provider<'Cluster'> = {
  kind: 'Cluster',

  async observe(scope, ports) {
    const { api } = ports;
    const desired = new Map(scope.desired.map((d) => [d.key, d.manifest]));
    const lists = [...wantedByProject(scope)].map(async ([project, names]) => {
      const items = await kubeList<Doc>(api, {
        ...clustersAt(api, project),
        auth: 'infra',
        operation: `listing clusters of project ${project}`,
      });
      return items.flatMap((item): LiveObject[] => {
        const name = str(obj(item.metadata)?.name);
        if (name === undefined || !names.has(name)) return [];
        const status = clusterPhase(item);
        const ref = liveRef('Cluster', name, project, undefined, names.get(name));
        return [
          liveObject(
            ref,
            item,
            normalizeCluster(item, api.groups.infra, desired.get(ref.key)),
            status,
          ),
        ];
      });
    });
    return (await Promise.all(lists)).flat();
  },

  plan(input): ProposedAction[] {
    const live = input.live && withTextVersions(input.live, input.desired);
    return planUpsert({ ...input, ...(live ? { live } : {}) }, 'cluster', clusterManagedBody);
  },

  inSync(input): boolean {
    const live = withTextVersions(input.live, input.desired);
    return upsertInSync({ desired: input.desired, live }, clusterManagedBody);
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
        // An apply answers 200 for a create too: a cluster already there is someone else's, left
        // as it is and recorded as found (the next plan updates it like any found object).
        const applies = api.dialect.clusterCreate === 'apply';
        if (action.type === 'create' && applies && (await read()).status === 200) {
          return { ownership: 'found' };
        }
        // Create and update are one POST, so a re-sent create cannot duplicate; the check saves
        // a second write all the same. A create answered 200 (not 201) updated someone's cluster.
        const res = await api.request({
          method: 'POST',
          ...clustersAt(api, project),
          auth: 'infra',
          operation: `${action.type === 'create' ? 'creating' : 'updating'} ${what}`,
          body: clusterWireBody(action.desired as ClusterManifest, api.dialect),
          idempotent: action.type === 'update',
          signal: ports.signal,
          ...(action.type === 'create'
            ? { existsCheck: async () => (await read()).status === 200 }
            : {}),
        });
        if (action.type !== 'create') return {};
        return createOwnership(res, applies ? [] : [200]);
      }
      case 'delete':
        await sendDelete(ports, {
          ...clusterAt(api, project, name),
          auth: 'infra',
          what: what,
        });
        await waitUntil(
          ports,
          `deletion of ${what}`,
          async () => {
            const res = await read();
            return {
              done: res.status === 404,
              status: clusterPhase(obj(res.body)) ?? 'deleting',
            };
          },
          'cluster-delete',
        );
        return {};
      default:
        throw unsupported('Cluster', action);
    }
  },
};

/** The live cluster with its versions as text, whoever built its body: compared as git has them. */
function withTextVersions(live: LiveObject, desired: ClusterManifest | undefined): LiveObject {
  return {
    ...live,
    body: { ...live.body, spec: versionsAsText(obj(live.body.spec) ?? {}, desired) },
  };
}
