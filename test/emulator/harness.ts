import { controlHeaders } from '../../src/emulator/admin/client.js';
import {
  type EmulatorOptions,
  type RunningEmulator,
  startEmulator,
} from '../../src/emulator/index.js';

/** The key of the seeded org admin in these tests (a test value, not a secret). */
export const ADMIN_KEY = 'emu-test-admin-key-0001';
export const INFRA = '/apis/infra.k8smgmt.io/v3/projects';

interface Reply {
  status: number;
  // biome-ignore lint/suspicious/noExplicitAny: test bodies are inspected loosely
  body: any;
  text: string;
  headers: Headers;
}

interface CallOptions {
  /** The key to send; ADMIN_KEY unless set; `null` sends none. */
  key?: string | null;
  /** The header to carry it; `X-SERVICE-API-KEYID` unless set. */
  header?: string;
  /** A raw body string (sent as is, overriding `body`). */
  raw?: string;
}

export interface Harness {
  emu: RunningEmulator;
  call(method: string, path: string, body?: unknown, opts?: CallOptions): Promise<Reply>;
  /** Advances the emulator clock through the admin control. */
  advance(seconds: number): Promise<void>;
  /** Creates a user and gives it a key through the admin control; returns id and key. */
  newUser(username: string): Promise<{ id: string; key: string }>;
  close(): Promise<void>;
}

/**
 * Starts an emulator on an ephemeral loopback port with the admin controls on. It speaks the
 * spec's dialect whatever `PLATCTL_DIALECT` says, as `call`'s default header does: these suites
 * test the spec's document, status codes and shapes; a suite about another dialect passes
 * `dialect` (rafay-dialect.test.ts), and the suites run on both are `DIALECT_SUITES`.
 */
export async function startHarness(options: Partial<EmulatorOptions> = {}): Promise<Harness> {
  const emu = await startEmulator({ apiKey: ADMIN_KEY, admin: true, dialect: 'spec', ...options });
  const call = async (
    method: string,
    path: string,
    body?: unknown,
    opts: CallOptions = {},
  ): Promise<Reply> => {
    const headers: Record<string, string> = { 'content-type': 'application/json' };
    const key = opts.key === undefined ? ADMIN_KEY : opts.key;
    if (key !== null) headers[opts.header ?? 'X-SERVICE-API-KEYID'] = key;
    Object.assign(headers, controlHeaders(path));
    const payload = opts.raw ?? (body === undefined ? undefined : JSON.stringify(body));
    const res = await fetch(emu.url + path, { method, headers, body: payload });
    const text = await res.text();
    let parsed: unknown = text;
    if ((res.headers.get('content-type') ?? '').includes('json') && text !== '')
      parsed = JSON.parse(text);
    return { status: res.status, body: parsed, text, headers: res.headers };
  };
  const harness: Harness = {
    emu,
    call,
    advance: async (seconds) => {
      const r = await call('POST', '/_emulator/clock/advance', { seconds }, { key: null });
      if (r.status !== 200) throw new Error(`advance failed: ${r.status}`);
    },
    newUser: async (username) => {
      const account = {
        username,
        first_name: 'T',
        last_name: 'User',
        password: 'pw-123456',
        user_type: 'API',
      };
      const created = await call('POST', '/auth/v1/users/', { account });
      if (created.status !== 201)
        throw new Error(`create user failed: ${created.status} ${created.text}`);
      const id = created.body.account.id as string;
      const keyReply = await call('POST', `/_emulator/users/${id}/apikeys`, {}, { key: null });
      return { id, key: keyReply.body.apiKey as string };
    },
    close: () => emu.close(),
  };
  return harness;
}

/** The body that assigns `roleName` (seeded ids) on project `name`. */
export function assignment(project: { id: string; name: string }, role: string): unknown {
  const ids: Record<string, string> = {
    PROJECT_ADMIN: 'role-project-admin',
    INFRA_ADMIN: 'role-infra-admin',
    PROJECT_READ_ONLY: 'role-project-read-only',
  };
  return { roles: [{ id: ids[role], name: role, scope: 'PROJECT', role_type: 'BASE' }], project };
}

/** A minimal valid GKE cluster body. */
export function clusterBody(
  name: string,
  overrides: Record<string, unknown> = {},
): Record<string, unknown> {
  return {
    apiVersion: 'infra.k8smgmt.io/v3',
    kind: 'Cluster',
    metadata: { name, project: 'platform', description: 'test cluster' },
    spec: {
      type: 'Gke',
      cloudCredentials: 'gcp-credentials',
      blueprint: { name: 'ml-stack', version: 'v1.1.0' },
      config: {
        project: 'acme-gcp',
        location: { type: 'zonal', zone: 'us-central1-a' },
        controlPlaneVersion: 1.29,
        network: { name: 'default', networkAccess: { privacy: 'public' }, maxPodsPerNode: 110 },
        nodePools: [
          {
            name: 'pool-1',
            size: 2,
            machineConfig: { machineType: 'e2-standard-4', bootDiskSize: 100 },
            upgradeSettings: { strategy: 'BLUE_GREEN', config: { batchSoakDuration: '10s' } },
          },
        ],
      },
      ...overrides,
    },
  };
}
