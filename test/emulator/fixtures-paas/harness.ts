import { randomBytes } from 'node:crypto';
import { DIALECTS, type DialectName } from '../../../src/core/dialect.js';
import { controlHeaders } from '../../../src/emulator/admin/client.js';
import { hashKey } from '../../../src/emulator/http/auth.js';
import type { EmuContext } from '../../../src/emulator/http/types.js';
import {
  DEFAULT_TRANSITION_SECONDS,
  type RunningEmulator,
  startEmulator,
} from '../../../src/emulator/index.js';

/** A response as the tests see it. */
export interface Reply {
  readonly status: number;
  // biome-ignore lint/suspicious/noExplicitAny: tests read arbitrary JSON bodies
  readonly body: any;
  readonly headers: Headers;
}

/** A running emulator on an ephemeral loopback port and a small client for it. */
export interface PaasHarness {
  readonly emu: RunningEmulator;
  /** Calls the API with the admin key (in the dialect's PaaS header unless `header` says otherwise). */
  call(method: string, path: string, body?: unknown, header?: string): Promise<Reply>;
  /** Calls the API with another key (see {@link userWithRole}). */
  callAs(key: string, method: string, path: string, body?: unknown): Promise<Reply>;
  /** Calls the API without any key. */
  anonymous(method: string, path: string): Promise<Reply>;
  /** Advances the emulator clock through the test control. */
  advance(seconds: number): Promise<void>;
  /** The emulator clock's now (ms), read through the test control. */
  now(): Promise<number>;
  /** An in-process context on the same store and clock (for seeding synthetic records). */
  readonly ctx: EmuContext;
  close(): Promise<void>;
}

export const P = '/apis/paas.envmgmt.io/v1/projects';
export const BILLING = '/apis/billing.envmgmt.io/v1/metrics/partner';

/**
 * Starts the emulator (every handler, with the admin controls) on an ephemeral loopback port. The clock runs at a millionth of real speed so that time
 * only moves when a test advances it. It speaks `dialect`, the spec's unless a suite asks for
 * another, whatever `PLATCTL_DIALECT` says: most of these suites test the spec's document and
 * answers; a suite run on both dialects (`DIALECT_SUITES`) passes `defaultDialect()`.
 */
export async function startPaas(
  options: { apiKey?: string; dataFile?: string; dialect?: DialectName } = {},
): Promise<PaasHarness> {
  const apiKey = options.apiKey ?? `test_${randomBytes(16).toString('hex')}`;
  const dialect = DIALECTS[options.dialect ?? 'spec'];
  const emu = await startEmulator({
    apiKey,
    ...(options.dataFile && { dataFile: options.dataFile }),
    admin: true,
    clockSpeed: 1e-6,
    dialect: dialect.name,
  });
  const send = async (
    method: string,
    path: string,
    headers: Record<string, string>,
    body?: unknown,
  ) => {
    const res = await fetch(emu.url + path, {
      method,
      headers: {
        ...headers,
        ...controlHeaders(path),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      ...(body !== undefined && { body: typeof body === 'string' ? body : JSON.stringify(body) }),
    });
    const text = await res.text();
    return {
      status: res.status,
      body: text === '' ? undefined : JSON.parse(text),
      headers: res.headers,
    };
  };
  const ctx: EmuContext = {
    store: emu.store,
    clock: emu.clock,
    config: {
      infraGroup: 'infra.k8smgmt.io',
      paasGroup: 'paas.envmgmt.io',
      billingGroup: 'billing.envmgmt.io',
      dialect,
      transitionSeconds: DEFAULT_TRANSITION_SECONDS,
    },
  };
  return {
    emu,
    ctx,
    call: (method, path, body, header = dialect.authHeader.paas) =>
      send(method, path, { [header]: apiKey }, body),
    callAs: (key, method, path, body) => send(method, path, { 'x-api-key': key }, body),
    anonymous: (method, path) => send(method, path, {}),
    advance: async (seconds) => {
      const r = await send('POST', '/_emulator/clock/advance', {}, { seconds });
      if (r.status !== 200) throw new Error(`advance failed: ${r.status}`);
    },
    now: async () => Date.parse((await send('GET', '/_emulator/clock', {})).body.now),
    close: () => emu.close(),
  };
}

/** A VPC service body; `variables` replaces the default valid set when given. */
export function vpcBody(name: string, variables?: { name: string; value: string }[]) {
  return {
    apiVersion: 'paas.envmgmt.io/v1',
    kind: 'Service',
    metadata: { name, project: 'platform' },
    spec: {
      serviceProfile: { name: 'vpc', systemCatalog: true },
      serviceType: 'custom',
      variables: variables ?? [
        { name: 'Default VPC Name', value: 'main' },
        { name: 'Default Subnet CIDR', value: '10.10.0.0/16' },
        { name: 'Default Subnet Gateway', value: '10.10.0.1' },
        { name: 'Public IP Enabled', value: 'True' },
      ],
    },
    status: { status: 'not_deployed' },
  };
}

/** A bare-metal instance body on `bmaas-l40s` unless told otherwise. */
export function bareMetalBody(
  name: string,
  options: { profile?: string; publicIp?: boolean; variables?: object[] } = {},
) {
  return {
    apiVersion: 'paas.envmgmt.io/v1',
    kind: 'ComputeInstance',
    metadata: { name, project: 'platform', workspace: 'ws' },
    spec: {
      computeType: 'baremetal',
      computeProfile: { name: options.profile ?? 'bmaas-l40s', systemCatalog: true },
      variables: options.variables ?? [
        { name: 'assign_public_ip', valueType: 'text', value: String(options.publicIp ?? false) },
        { name: 'node_os_image', valueType: 'text', value: 'ubuntu-22.04' },
        { name: 'Contract Term', valueType: 'text', value: '12' },
        {
          name: 'Security Policies',
          valueType: 'json',
          value: JSON.stringify([
            {
              source_cidr: '0.0.0.0/0',
              action: 'allow',
              application: 'ssh',
              port: '22',
              protocol: 'tcp',
            },
          ]),
        },
        { name: 'Infiniband Configuration', valueType: 'text', value: 'false' },
        { name: 'NVAIE License', valueType: 'text', value: 'true' },
      ],
    },
  };
}

/** A GPU Kubernetes instance body on `gpu-k8s` (valueType omitted, as in the spec's sample). */
export function k8sBody(name: string) {
  return {
    apiVersion: 'paas.envmgmt.io/v1',
    kind: 'ComputeInstance',
    metadata: { name, project: 'platform', workspace: 'ws' },
    spec: {
      computeType: 'k8s',
      computeProfile: { name: 'gpu-k8s', systemCatalog: true },
      variables: [
        { name: 'Cluster Kubernetes Version', value: 'v1.29.4' },
        { name: 'H100 Worker Nodes', value: '2' },
        { name: 'L40 Worker Nodes', value: '0' },
        { name: 'Master Node SKU', value: 'cpu-small' },
        { name: 'Master Nodes', value: '3' },
        { name: 'OS', value: 'ubuntu-22.04' },
        { name: 'Contract Term', value: '6' },
        { name: 'Enable Infiniband Configuration', value: 'true' },
        { name: 'Enable NVAIE License', value: 'false' },
      ],
    },
  };
}

/** Creates and publishes VPC `vpc` in `platform` and waits (on the emulator clock) until deployed. */
export async function deployVpc(h: PaasHarness): Promise<void> {
  await h.call('POST', `${P}/platform/services`, vpcBody('vpc'));
  await h.call('POST', `${P}/platform/services/vpc/publish`);
  await h.advance(30);
}

/** A started harness with workspace `ws` and a deployed VPC in `platform`: ready for compute. */
export async function startPaasForCompute(): Promise<PaasHarness> {
  const h = await startPaas();
  await createWorkspace(h);
  await deployVpc(h);
  return h;
}

/** A workspace body for project `platform`, with `metadata` fields added or replaced. */
export function workspaceBody(name: string, metadata: Record<string, unknown> = {}) {
  return {
    apiVersion: 'paas.envmgmt.io/v1',
    kind: 'Workspace',
    metadata: { name, project: 'platform', ...metadata },
  };
}

/** Creates workspace `ws` in `platform`. */
export async function createWorkspace(h: PaasHarness, name = 'ws'): Promise<void> {
  const r = await h.call('POST', `${P}/platform/workspaces`, workspaceBody(name));
  if (r.status !== 200) throw new Error(`workspace create failed: ${r.status}`);
}

/**
 * Seeds (in-process) a non-admin user of org-acme with a key and, when `role` is given, that role
 * on project `platform`. Returns the key; it is never printed.
 */
export function userWithRole(h: PaasHarness, id: string, role?: string): string {
  const key = `user_${randomBytes(12).toString('hex')}`;
  h.ctx.store.put('users', id, { id, username: `${id}@acme.example`, organizationId: 'org-acme' });
  h.ctx.store.put('apikeys', hashKey(key), { hash: hashKey(key), accountId: id });
  if (role) {
    h.ctx.store.put('assignments', `${id}/platform/${role}`, {
      accountId: id,
      project: 'platform',
      roleId: role,
      roleName: role,
    });
  }
  return key;
}
