import type { Action } from '../model/action.js';
import type { ApiClient } from '../model/api.js';
import { identityKey, type ManifestOf } from '../model/manifest.js';
import type { LiveObject, ObserveScope, Provider, ProviderPorts } from '../model/provider.js';
import { listInstances } from './compute-instance-list.js';
import { planInstance } from './compute-instance-plan.js';
import { unsupported } from './support/actions.js';
import { type Doc, managedBody } from './support/diff.js';
import { seg } from './support/list.js';
import { createOwnership, sendDelete } from './support/requests.js';
import { createdAtOf, display, liveRef, obj, pick, str } from './support/scope.js';
import { waitUntil } from './support/wait.js';

type InstanceManifest = ManifestOf<'ComputeInstance'>;
type ComputeType = InstanceManifest['spec']['computeType'];

const project = (api: ApiClient, p: string) => `/apis/${api.groups.paas}/v1/projects/${seg(p)}`;
const instances = (api: ApiClient, p: string, w: string) =>
  `${project(api, p)}/workspaces/${seg(w)}/computeinstances`;
const ROUTE = '/apis/{paas}/v1/projects/{project}/workspaces/{workspace}/computeinstances';

/** An instance's managed form; variables keep valueType for bare metal only. Pure. */
export function normalizeInstance(item: Doc, paasGroup: string): Doc {
  const spec = obj(item.spec) ?? {};
  const baremetal = spec.computeType === 'baremetal';
  const variables = Array.isArray(spec.variables) ? (spec.variables as Doc[]) : [];
  return {
    apiVersion: str(item.apiVersion) ?? `${paasGroup}/v1`,
    kind: 'ComputeInstance',
    metadata: pick(obj(item.metadata), [
      'name',
      'project',
      'workspace',
      'displayName',
      'description',
      'labels',
    ]),
    spec: {
      ...pick(spec, ['computeType', 'computeProfile', 'datacenter', 'storageDetails']),
      variables: variables.map((v) => ({
        name: v.name,
        ...(baremetal && v.valueType !== undefined ? { valueType: v.valueType } : {}),
        value: v.value,
        ...(v.options !== undefined ? { options: v.options } : {}),
      })),
    },
  };
}

/**
 * Which compute types to list per project: the declared ones, both when an unknown is owned (or
 * when reading everything).
 */
function typesByProject(scope: ObserveScope<'ComputeInstance'>): Map<string, Set<ComputeType>> {
  const types = new Map<string, Set<ComputeType>>();
  const add = (p: string, t: readonly ComputeType[]) => {
    if (!types.has(p)) types.set(p, new Set());
    for (const x of t) types.get(p)?.add(x);
  };
  if (scope.all) for (const p of scope.projects) add(p, ['baremetal', 'k8s']);
  for (const d of scope.desired) add(d.manifest.metadata.project, [d.manifest.spec.computeType]);
  const declared = new Set(scope.desired.map((d) => d.key));
  for (const r of scope.inventory) {
    if (r.project !== undefined && !declared.has(identityKey(r)))
      add(r.project, ['baremetal', 'k8s']);
  }
  return types;
}

/** Reads one instance (detail GET: spec and status), or undefined when absent. */
async function readInstance(
  api: ApiClient,
  ref: { project?: string; workspace?: string; name: string },
  computeType?: ComputeType,
): Promise<Doc | undefined> {
  const res = await api.request<Doc>({
    method: 'GET',
    path: `${instances(api, ref.project ?? '', ref.workspace ?? '')}/${seg(ref.name)}`,
    route: `${ROUTE}/{name}`,
    ...(computeType ? { query: { computeType } } : {}),
    auth: 'paas',
    operation: `reading compute instance ${display(ref)}`,
    accept: [404],
  });
  return res.status === 404 ? undefined : (res.body ?? undefined);
}

function toLive(item: Doc, paasGroup: string, p: string, computeType: ComputeType): LiveObject {
  const m = obj(item.metadata) ?? {};
  const status = obj(item.status) ?? {};
  const power = str(status.powerState);
  const { key, ref } = liveRef(
    'ComputeInstance',
    String(m.name),
    str(m.project) ?? p,
    str(m.workspace),
  );
  return {
    key,
    ref: { ...ref, computeType },
    ...createdAtOf(item),
    body: normalizeInstance(item, paasGroup),
    ...(str(status.status) !== undefined ? { status: str(status.status) } : {}),
    ...(power === 'on' || power === 'off' ? { powerState: power } : {}),
  };
}

/** Compute instances: a list gives names (the dialect's list), so each one in scope is read. */
export const computeInstanceProvider: Provider<'ComputeInstance'> = {
  kind: 'ComputeInstance',

  async observe(scope, ports) {
    const { api } = ports;
    const present = await listInstances(api, scope, typesByProject(scope));
    const read = present.map(async (l) => {
      const item = await readInstance(api, l, l.computeType);
      if (!item) return [];
      const type = l.computeType ?? (str(obj(item.spec)?.computeType) as ComputeType);
      return [toLive(item, api.groups.paas, l.project, type)];
    });
    return (await Promise.all(read)).flat();
  },

  plan: planInstance,

  async execute(action: Action, ports: ProviderPorts) {
    const { api } = ports;
    const ref = action.target;
    const base = `${instances(api, ref.project ?? '', ref.workspace ?? '')}/${seg(ref.name)}`;
    const what = `compute instance ${display(ref)}`;
    // the read path takes ?computeType=; power and delete carry it on their target
    const computeType =
      'desired' in action
        ? (action.desired as InstanceManifest).spec.computeType
        : action.target.computeType;
    const read = () => readInstance(api, ref, computeType);
    const state = (doc: Doc | undefined) => obj(doc?.status) ?? {};
    switch (action.type) {
      case 'create':
      case 'update': {
        const res = await api.request({
          method: 'POST',
          path: instances(api, ref.project ?? '', ref.workspace ?? ''),
          route: ROUTE,
          auth: 'paas',
          operation: `${action.type === 'create' ? 'creating' : 'updating'} ${what}`,
          body: managedBody(action.desired),
          idempotent: action.type === 'update',
          signal: ports.signal,
          ...(action.type === 'create'
            ? {
                query: { 'fail-on-exists': true },
                existsCheck: async () => (await read()) !== undefined,
              }
            : {}),
        });
        return action.type === 'create' ? createOwnership(res) : {};
      }
      case 'publish':
        await api.request({
          method: 'POST',
          path: `${base}/publish`,
          route: `${ROUTE}/{name}/publish`,
          auth: 'paas',
          operation: `publishing ${what}`,
          acceptOnRetry: [409],
          idempotent: true,
          signal: ports.signal,
        });
        await waitUntil(
          ports,
          what,
          async () => {
            const status = str(state(await read()).status) ?? 'gone';
            return {
              status,
              done: status === 'success',
              ...(status === 'failed' || status === 'gone'
                ? { failed: `provisioning ended ${status}` }
                : {}),
            };
          },
          'compute-provision',
        );
        return {};
      case 'power': {
        await api.request({
          method: 'POST',
          path: `${base}/action/${seg(action.powerAction)}`,
          route: `${ROUTE}/{name}/action/{action}`,
          auth: 'paas',
          operation: `powering ${action.powerAction} ${what}`,
          body: {},
          acceptOnRetry: [409],
          // start and stop name a state (409 once in it); a reset or cycle is never sent twice
          idempotent: action.powerAction === 'start' || action.powerAction === 'stop',
          signal: ports.signal,
        });
        const expected = { start: 'on', stop: 'off' }[action.powerAction as 'start' | 'stop'];
        if (expected) {
          await waitUntil(ports, `power ${expected} of ${what}`, async () => {
            const power = str(state(await read()).powerState) ?? 'unknown';
            return { status: power, done: power === expected };
          });
        }
        return {};
      }
      case 'delete':
        await sendDelete(ports, { path: base, route: `${ROUTE}/{name}`, auth: 'paas', what: what });
        await waitUntil(
          ports,
          `deletion of ${what}`,
          async () => {
            const doc = await read();
            return { done: doc === undefined, status: str(state(doc).status) ?? 'deleting' };
          },
          'compute-delete',
        );
        return {};
      default:
        throw unsupported('ComputeInstance', action);
    }
  },
};
