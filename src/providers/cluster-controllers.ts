import type { Action, ProposedAction } from '../model/action.js';
import type { Provider, ProviderPorts } from '../model/provider.js';
import { clusterAt } from './cluster.js';
import { clusterPhase } from './cluster-wire.js';
import { unsupported } from './support/actions.js';
import type { Doc } from './support/diff.js';
import { seg } from './support/list.js';
import { refOf } from './support/scope.js';
import { waitUntil } from './support/wait.js';

const COMPONENTS = [
  ['capi', 'capiVersion'],
  ['capg', 'capgVersion'],
] as const;

/**
 * CAPI and CAPG controller versions of an existing cluster. The API has no read of them: one
 * `controller-update` per component whose desired version differs from what platctl last set
 * (the ordering step puts CAPI before CAPG). A version cannot be un-set, so pruning forgets.
 */
export const clusterControllersProvider: Provider<'ClusterControllers'> = {
  kind: 'ClusterControllers',

  async observe() {
    return [];
  },

  plan({ key, desired, lastApplied }): ProposedAction[] {
    if (!desired) return [];
    return COMPONENTS.flatMap(([component, field]): ProposedAction[] => {
      const version = desired.spec[field];
      const before = lastApplied?.spec[field];
      if (version === undefined || version === before) return [];
      return [
        {
          type: 'controller-update',
          key,
          target: refOf(desired),
          component,
          version,
          reason: {
            code: before === undefined ? 'absent' : 'changed',
            message: `${component.toUpperCase()} controller of cluster ${desired.metadata.project}/${desired.metadata.name} ${before === undefined ? `set to ${version}` : `changed from ${before} to ${version}`}`,
          },
          changes: [
            {
              op: before === undefined ? 'add' : 'replace',
              path: `/spec/${field}`,
              ...(before !== undefined ? { before } : {}),
              after: version,
            },
          ],
        },
      ];
    });
  },

  async execute(action: Action, ports: ProviderPorts) {
    if (action.type !== 'controller-update') throw unsupported('ClusterControllers', action);
    const { api } = ports;
    const project = action.target.project ?? '';
    const field = action.component === 'capi' ? 'capiVersion' : 'capgVersion';
    // the update is the spec's own path; the read is one the spec does not show (the path table)
    const updatePath = `/apis/${api.groups.infra}/v3/projects/${seg(project)}/clusters/${seg(action.target.name)}/updatecontrollerdeployment`;
    const what = `cluster ${project}/${action.target.name}`;
    // Exactly one of the two fields per request: the platform rejects both or neither.
    const update = (accept: number[]) =>
      api.request({
        method: 'POST',
        path: updatePath,
        route: '/apis/{infra}/v3/projects/{project}/clusters/{cluster}/updatecontrollerdeployment',
        auth: 'infra',
        operation: `updating the ${action.component.toUpperCase()} controller of ${what} to ${action.version}`,
        body: { [field]: action.version },
        accept,
        idempotent: true, // to a version by name: sending it twice is updating it once
        signal: ports.signal,
      });
    // 409 means the cluster is not ready yet (still provisioning): wait for it, then send again.
    if ((await update([409])).status !== 409) return {};
    await waitUntil(
      ports,
      what,
      async () => {
        const res = await api.request<Doc>({
          method: 'GET',
          ...clusterAt(api, project, action.target.name),
          auth: 'infra',
          operation: `reading ${what}`,
        });
        // the phase in whichever shape the dialect answers (`status.status` or `commonStatus`)
        const status = clusterPhase(res.body) ?? 'unknown';
        return {
          status,
          done: status === 'ready',
          ...(status === 'failed' ? { failed: 'provisioning failed' } : {}),
        };
      },
      'cluster-provision',
    );
    await update([]);
    return {};
  },
};
