import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Journal } from '../../src/emulator/admin/journal.js';
import type { EmuContext, EmuResponse } from '../../src/emulator/http/types.js';
import { identityHandlers } from '../../src/emulator/identity/handlers.js';
import { paasHandlers } from '../../src/emulator/paas/handlers.js';
import { MemoryStore } from '../../src/emulator/store/memory-store.js';
import type { EmulatorStore } from '../../src/emulator/store/types.js';
import { fakeContext, request } from './fixtures-paas/fake-context.js';

/** `ctx` over a real MemoryStore holding what the fake context seeded, counting whole-collection lists. */
function countingContext(): { ctx: EmuContext; lists: string[] } {
  const seeded = fakeContext();
  const store = new MemoryStore();
  for (const c of ['orgs', 'projects', 'profiles']) {
    for (const v of seeded.store.list<{ id?: string; name: string }>(c)) {
      store.put(c, c === 'orgs' ? v.id! : v.name, v);
    }
  }
  const lists: string[] = [];
  const counting: EmulatorStore = {
    get: (c, k) => store.get(c, k),
    put: (c, k, v) => store.put(c, k, v),
    delete: (c, k) => store.delete(c, k),
    list: <T>(c: string, prefix?: string): T[] => {
      lists.push(c);
      return store.list<T>(c, prefix);
    },
    sorted: (c, prefix, compare) => store.sorted(c, prefix, compare),
    transaction: (fn) => store.transaction(fn),
    clear: () => store.clear(),
    close: () => store.close(),
  };
  const ctx = { ...seeded, store: counting };
  fakeContextClock.set(ctx, seeded.tick);
  return { ctx, lists };
}

/** The envelope every PaaS body carries (apiVersion, kind, metadata). */
const paas = (kind: string, metadata: Record<string, string>) => ({
  apiVersion: 'paas.envmgmt.io/v1',
  kind,
  metadata,
});

const fakeContextClock = new WeakMap<EmuContext, (s: number) => void>();

function createAll(ctx: EmuContext, i: number): void {
  const h = { ...paasHandlers, ...identityHandlers };
  const project = { projectName: 'platform' };
  h.upsertWorkspace!(
    request(project, paas('Workspace', { name: `ws-${i}`, project: 'platform' })),
    ctx,
  );
  h.createService!(
    request(project, {
      ...paas('Service', { name: `svc-${i}`, project: 'platform' }),
      spec: { serviceProfile: { name: 'vpc' } },
    }),
    ctx,
  );
  h.upsertComputeInstance!(
    request(
      { project: 'platform', workspace: `ws-${i}` },
      {
        ...paas('ComputeInstance', { name: `vm-${i}`, project: 'platform', workspace: `ws-${i}` }),
        spec: { computeType: 'baremetal', computeProfile: { name: 'bmaas-l40s' } },
      },
    ),
    ctx,
  );
  const account = { username: `u${i}@acme.example`, first_name: 'U', last_name: String(i) };
  h.createUser!(request({}, { account: { ...account, user_type: 'CONSOLE', password: 'x' } }), ctx);
}

describe('emulator store costs', () => {
  it('creates a workspace, service, instance and user without reading a whole collection', () => {
    const { ctx, lists } = countingContext();
    for (let i = 0; i < 5; i++) createAll(ctx, i); // a store without the marks is scanned once
    lists.length = 0;
    createAll(ctx, 5);
    expect(lists).toEqual([]);
    // and the indexes still say what a scan would
    const taken = identityHandlers.createUser!;
    const again = { username: 'U3@ACME.example', first_name: 'a', last_name: 'b' };
    expect(() =>
      taken(request({}, { account: { ...again, user_type: 'CONSOLE', password: 'x' } }), ctx),
    ).toThrow(expect.objectContaining({ status: 400 }));
  });

  it('lists the same instances from a kept split by type, dropping one once its delete ends', () => {
    const { ctx } = countingContext();
    const tick = fakeContextClock.get(ctx)!;
    for (let i = 0; i < 3; i++) createAll(ctx, i);
    const list = () =>
      (
        (
          paasHandlers.listComputeInstances!(
            request({ project: 'platform' }, undefined, { computeType: 'baremetal', limit: 10 }),
            ctx,
          ) as EmuResponse
        ).body as { metadata: { count: number }; items: { metadata: { name: string } }[] }
      ).items.map((i) => i.metadata.name);
    expect(list()).toEqual(['vm-2', 'vm-1', 'vm-0']);
    expect(list()).toEqual(['vm-2', 'vm-1', 'vm-0']);
    paasHandlers.deleteComputeInstance!(
      request({ project: 'platform', workspace: 'ws-1', instanceName: 'vm-1' }),
      ctx,
    );
    expect(list()).toEqual(['vm-2', 'vm-1', 'vm-0']); // deleting, still listed
    tick(3600);
    expect(list()).toEqual(['vm-2', 'vm-0']);
  });

  it('keeps a sorted order equal to sorting the list, through writes, deletes and rollbacks', () => {
    type V = { n: number; name: string };
    const compare = (a: V, b: V) => a.n - b.n || a.name.localeCompare(b.name);
    const op = fc.record({
      kind: fc.constantFrom('put', 'delete', 'failed'),
      key: fc.constantFrom('p/a', 'p/b', 'p/c', 'q/a', 'q/b', 'pa', 'p/d/e'),
      n: fc.integer({ min: 0, max: 5 }),
    });
    fc.assert(
      fc.property(fc.array(op, { maxLength: 40 }), (ops) => {
        const store = new MemoryStore();
        store.sorted<V>('c', 'p/', compare); // the order is kept from here on
        for (const { kind, key, n } of ops) {
          if (kind === 'put') store.put('c', key, { n, name: key });
          else if (kind === 'delete') store.delete('c', key);
          else {
            expect(() =>
              store.transaction(() => {
                store.put('c', key, { n: n + 10, name: key });
                store.delete('c', 'p/a');
                throw new Error('abort');
              }),
            ).toThrow('abort');
          }
          for (const prefix of ['p/', 'q/', '']) {
            const byKey = (x: V, y: V) => compare(x, y) || (x.name < y.name ? -1 : 1);
            expect(store.sorted<V>('c', prefix, compare)).toEqual(
              store.list<V>('c', prefix).sort(byKey),
            );
          }
        }
      }),
    );
  });

  it('hands out list values that cannot change the store, and get copies that may change', () => {
    const store = new MemoryStore();
    store.put('c', 'k', { a: [1] });
    const listed = store.list<{ a: number[] }>('c')[0]!;
    expect(() => listed.a.push(2)).toThrow(TypeError);
    const got = store.get<{ a: number[] }>('c', 'k')!;
    got.a.push(2);
    expect(store.get('c', 'k')).toEqual({ a: [1] });
  });
});

describe('journal ring buffer', () => {
  const entry = (i: number) => ({
    time: `t${i}`,
    method: 'GET',
    path: `/p/${i}`,
    query: {},
    status: 200,
    authHeader: null,
    operationId: null,
  });

  it('keeps the newest entries in order and reads from any sequence number', () => {
    const journal = new Journal(5);
    for (let i = 1; i <= 12; i++) journal.record(entry(i));
    expect(journal.last).toBe(12);
    expect(journal.since().map((e) => e.seq)).toEqual([8, 9, 10, 11, 12]);
    expect(journal.since(10).map((e) => e.path)).toEqual(['/p/11', '/p/12']);
    expect(journal.since(10.5).map((e) => e.seq)).toEqual([11, 12]);
    expect(journal.since(12)).toEqual([]);
    journal.clear();
    expect(journal.since()).toEqual([]);
    journal.record(entry(13));
    expect(journal.since().map((e) => e.seq)).toEqual([13]);
  });
});
