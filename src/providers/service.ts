import type { Action, ProposedAction } from '../model/action.js';
import type { ApiClient } from '../model/api.js';
import type { ManifestOf } from '../model/manifest.js';
import type { PlanDiagnostic } from '../model/plan.js';
import type { LiveObject, PlanInput, Provider, ProviderPorts } from '../model/provider.js';
import { tablePath } from './client/paths.js';
import { createAction, deleteAction, unsupported } from './support/actions.js';
import { type Doc, managedBody, threeWayDiff } from './support/diff.js';
import { kubeList, seg } from './support/list.js';
import { createOwnership, sendDelete } from './support/requests.js';
import {
  comparable,
  display,
  liveObject,
  liveRef,
  obj,
  pick,
  str,
  wantedByProject,
} from './support/scope.js';
import { waitUntil } from './support/wait.js';

type ServiceManifest = ManifestOf<'Service'>;

/** The spec's own create path (`POST`); the list, read and delete paths come from the path table. */
const createPath = (api: ApiClient, project: string) =>
  `/apis/${api.groups.paas}/v1/projects/${seg(project)}/services`;
const ROUTE = '/apis/{paas}/v1/projects/{project}/services';
const serviceAt = (api: ApiClient, project: string, name: string) =>
  tablePath(api, 'service', { project, name });

/** A service's managed form: metadata, profile, type, variables as {name, value}. Pure. */
export function normalizeService(item: Doc, paasGroup: string): Doc {
  const spec = obj(item.spec) ?? {};
  const variables = Array.isArray(spec.variables) ? (spec.variables as Doc[]) : [];
  return {
    apiVersion: str(item.apiVersion) ?? `${paasGroup}/v1`,
    kind: 'Service',
    metadata: pick(obj(item.metadata), ['name', 'project', 'displayName', 'description', 'labels']),
    spec: {
      ...pick(spec, ['serviceProfile', 'serviceType']),
      variables: variables.map((v) => ({ name: v.name, value: v.value })),
    },
  };
}

function difference({ desired, live, lastApplied }: PlanInput<'Service'>) {
  if (!desired || !live) return undefined;
  return threeWayDiff(
    comparable(managedBody(desired)),
    comparable(live.body),
    lastApplied && comparable(managedBody(lastApplied)),
  );
}

/**
 * VPC services: created `not_deployed`, then published until `deployed` (a service in any other
 * state is published, or waited for). The API has no update, so a changed spec is a diagnostic,
 * not an action.
 */
export const serviceProvider: Provider<'Service'> = {
  kind: 'Service',

  async observe(scope, ports) {
    const { api } = ports;
    const lists = [...wantedByProject(scope)].map(async ([project, names]) => {
      const items = await kubeList<Doc>(api, {
        ...tablePath(api, 'services', { project }),
        auth: 'paas',
        operation: `listing services of project ${project}`,
      });
      return items.flatMap((item): LiveObject[] => {
        const name = str(obj(item.metadata)?.name);
        if (name === undefined || !names.has(name)) return [];
        const status = str(obj(item.status)?.status);
        const id = liveRef('Service', name, project, undefined, names.get(name));
        return [liveObject(id, item, normalizeService(item, api.groups.paas), status)];
      });
    });
    return (await Promise.all(lists)).flat();
  },

  plan(input): ProposedAction[] {
    const { key, desired, live } = input;
    if (!desired) return live ? [deleteAction(key, live, `service ${display(live.ref)}`)] : [];
    const what = `VPC service ${display(desired.metadata)}`;
    const publish: ProposedAction = {
      type: 'publish',
      key,
      target: live?.ref ?? {
        kind: 'Service',
        name: desired.metadata.name,
        project: desired.metadata.project,
      },
      desired,
      reason: {
        code: 'not-deployed',
        message: live ? `${what} is ${live.status ?? 'not deployed'}` : `${what} is new`,
      },
      changes: [],
    };
    if (!live) return [createAction(key, desired, what), publish];
    // A VPC still deploying (a run cut off while waiting) gets a publish too: the platform answers
    // 409, and the action waits until it is deployed, so compute that needs it is not started early.
    return live.status === 'deployed' ? [] : [publish];
  },

  diagnose(input): PlanDiagnostic[] {
    const diff = difference(input);
    if (!diff || !input.desired) return [];
    return [
      {
        severity: 'error',
        key: input.key,
        message: `VPC service ${display(input.desired.metadata)}: ${diff.message}, but the API cannot update a service; give it a new name to create a replacement`,
      },
    ];
  },

  async execute(action: Action, ports: ProviderPorts) {
    const { api } = ports;
    const project = action.target.project ?? '';
    const name = action.target.name;
    const what = `VPC service ${project}/${name}`;
    const read = (accept: number[] = [404]) =>
      api.request<Doc>({
        method: 'GET',
        ...serviceAt(api, project, name),
        auth: 'paas',
        operation: `reading ${what}`,
        accept,
      });
    switch (action.type) {
      case 'create': {
        const res = await api.request({
          method: 'POST',
          path: createPath(api, project),
          route: ROUTE,
          auth: 'paas',
          operation: `creating ${what}`,
          body: managedBody(action.desired as ServiceManifest),
          // where creates are upserts, only fail-on-exists keeps a raced create from taking over
          ...(api.dialect.failOnExists ? { query: { 'fail-on-exists': true } } : {}),
          existsCheck: async () => (await read()).status === 200,
          signal: ports.signal,
        });
        return createOwnership(res);
      }
      case 'publish':
        // 409 means already deploying or deployed: the wait below tells which.
        await api.request({
          method: 'POST',
          path: `${createPath(api, project)}/${seg(name)}/publish`,
          route: `${ROUTE}/{name}/publish`,
          auth: 'paas',
          operation: `publishing ${what}`,
          accept: [409],
          idempotent: true,
          signal: ports.signal,
        });
        await waitUntil(
          ports,
          what,
          async () => {
            const res = await read([]);
            const status = str(obj(res.body?.status)?.status) ?? 'unknown';
            return {
              status,
              done: status === 'deployed',
              ...(status === 'failed' ? { failed: 'deployment failed' } : {}),
            };
          },
          'vpc-deploy',
        );
        return {};
      case 'delete':
        await sendDelete(ports, {
          ...serviceAt(api, project, name),
          auth: 'paas',
          what: what,
        });
        return {};
      default:
        throw unsupported('Service', action);
    }
  },
};
