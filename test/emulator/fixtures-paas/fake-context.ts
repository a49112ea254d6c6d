import { DIALECTS } from '../../../src/core/dialect.js';
import type { EmuContext, EmuRequest, Principal } from '../../../src/emulator/http/types.js';
import type { EmulatorStore } from '../../../src/emulator/store/types.js';

/** A minimal in-memory {@link EmulatorStore}: deep copies in and out, keys in sorted order. */
function memoryStore(): EmulatorStore {
  const data = new Map<string, Map<string, string>>();
  const coll = (name: string) => {
    const c = data.get(name) ?? new Map<string, string>();
    data.set(name, c);
    return c;
  };
  return {
    get: <T>(c: string, k: string) => {
      const v = coll(c).get(k);
      return v === undefined ? undefined : (JSON.parse(v) as T);
    },
    put: (c, k, v) => void coll(c).set(k, JSON.stringify(v)),
    delete: (c, k) => coll(c).delete(k),
    list: <T>(c: string, prefix = '') =>
      [...coll(c).entries()]
        .filter(([k]) => k.startsWith(prefix))
        .sort(([a], [b]) => (a < b ? -1 : 1))
        .map(([, v]) => JSON.parse(v) as T),
    sorted<T>(c: string, prefix: string, compare: (a: T, b: T) => number) {
      return this.list<T>(c, prefix).sort(compare);
    },
    transaction: (fn) => fn(),
    clear: () => data.clear(),
    close: () => {},
  };
}

/** A fake context: memory store seeded with project `platform` and profiles, and a manual clock. */
export function fakeContext(
  startMs = Date.UTC(2026, 0, 1),
): EmuContext & { tick(s: number): void } {
  let now = startMs;
  const store = memoryStore();
  store.put('orgs', 'org-acme', { id: 'org-acme', name: 'acme', partnerId: 'partner-emulator' });
  store.put('projects', 'platform', {
    id: 'prj-platform',
    name: 'platform',
    description: '',
    organizationId: 'org-acme',
    createdAt: '',
    modifiedAt: '',
  });
  const hardware = {
    cpu_count: 64,
    cpu_arch: 'x86_64',
    gpu_count: 8,
    gpu_model: 'L40S',
    memory_size_gb: 512,
    storage_size_gb: 3840,
    storage_type: 'block',
  };
  store.put('profiles', 'bmaas-l40s', {
    name: 'bmaas-l40s',
    kind: 'baremetal',
    billable: true,
    region: 'r',
    hardware,
  });
  store.put('profiles', 'vpc', {
    name: 'vpc',
    kind: 'service',
    billable: false,
    region: 'r',
    hardware,
  });
  return {
    store,
    clock: { now: () => now, sleep: async () => {} },
    config: {
      infraGroup: 'infra.k8smgmt.io',
      paasGroup: 'paas.envmgmt.io',
      billingGroup: 'billing.envmgmt.io',
      dialect: DIALECTS.spec,
      transitionSeconds: {
        'vpc-deploy': 30,
        'compute-provision': 300,
        'compute-delete': 60,
        'cluster-provision': 600,
        'cluster-delete': 120,
      },
    },
    tick: (s: number) => {
      now += s * 1000;
    },
  };
}

const ADMIN: Principal = {
  accountId: 'u',
  username: 'admin@acme.example',
  organizationId: 'org-acme',
  orgAdmin: true,
};

/** A request as the HTTP layer would hand it to a handler (already validated). */
export function request(
  params: Record<string, string>,
  body?: unknown,
  query: Record<string, unknown> = {},
): EmuRequest {
  return {
    operationId: 'test',
    method: 'POST',
    path: '/',
    params,
    query,
    body,
    headers: {},
    principal: ADMIN,
  };
}
