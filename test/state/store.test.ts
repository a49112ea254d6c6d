import { describe, expect, it } from 'vitest';
import type { LiveObject } from '../../src/model/provider.js';
import { executePlan } from '../../src/reconcile/executor.js';
import { adoptPending } from '../../src/reconcile/ownership.js';
import { createRecorder } from '../../src/reconcile/record.js';
import type { StateWrite } from '../../src/state/types.js';
import { act, planOf } from '../reconcile/helpers.js';
import { m } from '../reconcile/manifests.js';
import { placesOf, storeFactories } from './factories.js';

const live = (key: string, createdAt?: number): LiveObject => ({
  key,
  ref: { kind: 'Workspace', project: 'p', name: key.split('/').at(-1)! },
  body: {},
  ...(createdAt === undefined ? {} : { createdAt }),
});

describe.each(storeFactories)('state store contract: $name', (factory) => {
  const places = placesOf(factory);

  it('round-trips inventory, last-applied and pending records', async () => {
    const s = await places.open();
    await s.putInventory({
      key: 'User/a',
      kind: 'User',
      ref: { kind: 'User', name: 'a', id: 'u1' },
      id: 'u1',
      createdByPlatctl: true,
      protected: false,
    });
    await s.putLastApplied('Workspace/p/ws', m.workspace('p', 'ws'));
    expect(await s.inventory()).toEqual([
      {
        key: 'User/a',
        kind: 'User',
        ref: { kind: 'User', name: 'a', id: 'u1' },
        id: 'u1',
        createdByPlatctl: true,
        protected: false,
      },
    ]);
    expect((await s.lastApplied()).get('Workspace/p/ws')).toEqual(m.workspace('p', 'ws'));
  });

  it('updates and removes records by key, leaving the others', async () => {
    const s = await places.open();
    const ref = { kind: 'Workspace' as const, project: 'p', name: 'ws' };
    const entry = { key: 'Workspace/p/ws', kind: 'Workspace' as const, ref };
    await s.putInventory({ ...entry, createdByPlatctl: false, protected: false });
    await s.putInventory({ ...entry, createdByPlatctl: true, protected: true });
    await s.putInventory({
      ...entry,
      key: 'Workspace/p/b',
      createdByPlatctl: false,
      protected: false,
    });
    expect((await s.inventory()).map((e) => [e.key, e.createdByPlatctl, e.protected])).toEqual([
      ['Workspace/p/b', false, false],
      ['Workspace/p/ws', true, true],
    ]);
    await s.removeInventory('Workspace/p/ws');
    expect((await s.inventory()).map((e) => e.key)).toEqual(['Workspace/p/b']);
    await s.putLastApplied('Workspace/p/ws', m.workspace('p', 'ws'));
    await s.putLastApplied('Workspace/p/ws', m.service('p', 'ws'));
    expect((await s.lastApplied()).get('Workspace/p/ws')).toEqual(m.service('p', 'ws'));
    await s.removeLastApplied('Workspace/p/ws');
    expect((await s.lastApplied()).size).toBe(0);
    await s.beginPending({ key: 'Workspace/p/ws', actionId: 'x#create', ref, startedAt: 7 });
    expect(await s.pending()).toEqual([
      { key: 'Workspace/p/ws', actionId: 'x#create', ref, startedAt: 7 },
    ]);
    await s.clearPending('Workspace/p/ws');
    expect(await s.pending()).toEqual([]);
  });

  it('keeps the outcome history, by run then action', async () => {
    const s = await places.open();
    await s.recordOutcome('run-2', 'B/b#create', 'B/b', { status: 'succeeded', elapsedMs: 3 });
    await s.recordOutcome('run-1', 'A/a#update', 'A/a', { status: 'skipped', because: 'X#y' });
    await s.recordOutcome('run-2', 'A/a#create', 'A/a', { status: 'not-started' });
    expect(await s.outcomes()).toEqual([
      {
        runId: 'run-1',
        actionId: 'A/a#update',
        key: 'A/a',
        outcome: { status: 'skipped', because: 'X#y' },
      },
      { runId: 'run-2', actionId: 'A/a#create', key: 'A/a', outcome: { status: 'not-started' } },
      {
        runId: 'run-2',
        actionId: 'B/b#create',
        key: 'B/b',
        outcome: { status: 'succeeded', elapsedMs: 3 },
      },
    ]);
  });

  it('prunes the outcomes of all but the newest runs', async () => {
    let now = 1_000;
    const s = await places.open({ clock: { now: () => now, sleep: async () => {} } });
    for (const run of ['run-1', 'run-2', 'run-3', 'run-4']) {
      now += 1_000;
      await s.recordOutcome(run, 'A/a#update', 'A/a', { status: 'not-started' });
      await s.recordOutcome(run, 'B/b#update', 'B/b', { status: 'not-started' });
    }
    // an older run written again (a retried settle) counts as written then
    now += 1_000;
    await s.recordOutcome('run-1', 'C/c#create', 'C/c', { status: 'not-started' });
    await s.pruneOutcomes(2);
    const runs = (await s.outcomes()).map((o) => `${o.runId} ${o.actionId}`);
    expect(runs).toEqual([
      'run-1 A/a#update',
      'run-1 B/b#update',
      'run-1 C/c#create',
      'run-4 A/a#update',
      'run-4 B/b#update',
    ]);
    await s.pruneOutcomes(5);
    expect(await s.outcomes()).toHaveLength(5);
    await expect(s.pruneOutcomes(0)).rejects.toThrow(TypeError);
  });

  it('keeps what was written for the next store opened on the same place', async () => {
    const place = await places.place();
    const first = await place.open();
    await first.putLastApplied('Workspace/p/ws', m.workspace('p', 'ws'));
    await first.close();
    const second = await place.open();
    expect([...(await second.lastApplied()).keys()]).toEqual(['Workspace/p/ws']);
  });

  it('adopts a pending create that is live instead of creating it again', async () => {
    const s = await places.open();
    await s.beginPending({
      key: 'Workspace/p/ws',
      actionId: 'Workspace/p/ws#create',
      ref: { kind: 'Workspace', project: 'p', name: 'ws' },
      startedAt: 1,
    });
    await s.beginPending({
      key: 'Workspace/p/gone',
      actionId: 'Workspace/p/gone#create',
      ref: { kind: 'Workspace', project: 'p', name: 'gone' },
      startedAt: 1,
    });
    await adoptPending(s, [live('Workspace/p/ws', 1)]);
    expect(await s.pending()).toEqual([]);
    expect((await s.inventory()).map((e) => [e.key, e.createdByPlatctl])).toEqual([
      ['Workspace/p/ws', true],
    ]);
  });

  it('records a pending create as found when the object cannot be proven ours', async () => {
    const s = await places.open();
    for (const name of ['older', 'undated']) {
      await s.beginPending({
        key: `Workspace/p/${name}`,
        actionId: `Workspace/p/${name}#create`,
        ref: { kind: 'Workspace', project: 'p', name },
        startedAt: 1000,
      });
    }
    const events: unknown[] = [];
    await adoptPending(s, [live('Workspace/p/older', 999), live('Workspace/p/undated')], (e) =>
      events.push(e),
    );
    expect(await s.pending()).toEqual([]);
    expect((await s.inventory()).map((e) => [e.key, e.createdByPlatctl])).toEqual([
      ['Workspace/p/older', false],
      ['Workspace/p/undated', false],
    ]);
    expect(events).toEqual([
      { type: 'found', key: 'Workspace/p/older' },
      { type: 'found', key: 'Workspace/p/undated' },
    ]);
  });

  it('records last-applied only when every action of a key succeeded', async () => {
    const s = await places.open();
    const create = act('ComputeInstance/p/ws/i#create', [], 'create');
    const publish = act('ComputeInstance/p/ws/i#publish', [create.id], 'publish');
    const other = act('Workspace/p/ws#create', [], 'create');
    const plan = planOf([create, publish, other]);
    const desired = new Map([
      ['ComputeInstance/p/ws/i', m.instance('p', 'ws', 'i')],
      ['Workspace/p/ws', m.workspace('p', 'ws')],
    ]);
    const r = await createRecorder(s, plan, desired, 'run-1', () => 5);
    await r.beforeStart(create);
    expect((await s.pending()).map((p) => p.key)).toEqual(['ComputeInstance/p/ws/i']);
    await r.settled(create, { status: 'succeeded', elapsedMs: 1 });
    expect(await s.pending()).toEqual([]);
    expect((await s.inventory()).map((e) => e.key)).toEqual(['ComputeInstance/p/ws/i']);
    await r.settled(publish, { status: 'failed', elapsedMs: 1, error: 'boom', code: 'api' });
    await r.beforeStart(other);
    await r.settled(other, { status: 'succeeded', elapsedMs: 1 });
    expect([...(await s.lastApplied()).keys()]).toEqual(['Workspace/p/ws']);
  });

  it('applies a batch in order as one transaction: all of it or none', async () => {
    const s = await places.open();
    const ref = { kind: 'Workspace' as const, project: 'p', name: 'ws' };
    const entry = { key: 'Workspace/p/ws', kind: 'Workspace' as const, ref };
    await s.batch([
      { type: 'beginPending', op: { key: entry.key, actionId: 'a1', ref, startedAt: 1 } },
      { type: 'putInventory', entry: { ...entry, createdByPlatctl: false, protected: false } },
      { type: 'putInventory', entry: { ...entry, createdByPlatctl: true, protected: false } },
      { type: 'putLastApplied', key: entry.key, manifest: m.workspace('p', 'ws') },
      { type: 'clearPending', key: entry.key },
      { type: 'recordOutcome', runId: 'r', actionId: 'a1', key: entry.key, outcome: ok },
    ]);
    expect(await s.inventory()).toEqual([{ ...entry, createdByPlatctl: true, protected: false }]);
    expect(await s.pending()).toEqual([]);
    const unwritable = { status: 'succeeded', elapsedMs: 1n } as unknown as typeof ok;
    await expect(
      s.batch([
        { type: 'removeInventory', key: entry.key },
        { type: 'removeLastApplied', key: entry.key },
        { type: 'recordOutcome', runId: 'r', actionId: 'a2', key: entry.key, outcome: unwritable },
      ]),
    ).rejects.toThrow();
    expect((await s.inventory()).map((e) => e.key)).toEqual([entry.key]);
    expect([...(await s.lastApplied()).keys()]).toEqual([entry.key]);
  });

  it('commits what settling an action writes at once, not a write at a time', async () => {
    const s = await places.open();
    const create = act('Workspace/p/ws#create', [], 'create');
    const calls: string[] = [];
    const counting = new Proxy(s, {
      get: (target, name) => {
        const v = Reflect.get(target, name);
        return typeof v === 'function'
          ? (...args: unknown[]) => {
              calls.push(String(name));
              return v.apply(target, args);
            }
          : v;
      },
    });
    const r = await createRecorder(
      counting,
      planOf([create]),
      new Map([['Workspace/p/ws', m.workspace('p', 'ws')]]),
      'run-1',
      () => 5,
    );
    await r.beforeStart(create);
    calls.length = 0;
    await r.settled(create, ok);
    expect(calls).toEqual(['batch']);
    expect(await s.pending()).toEqual([]);
    expect((await s.inventory()).map((e) => e.key)).toEqual(['Workspace/p/ws']);
    expect([...(await s.lastApplied()).keys()]).toEqual(['Workspace/p/ws']);
  });

  it('commits the writes of actions that start or settle together in one transaction each', async () => {
    const s = await places.open();
    const creates = ['a', 'b', 'c'].map((n) => act(`Workspace/p/${n}#create`, [], 'create'));
    const noops = ['d', 'e'].map((n) => act(`Workspace/p/${n}#noop`, [], 'noop'));
    const desired = new Map(
      [...creates, ...noops].map((a) => [a.key, m.workspace('p', a.target.name)]),
    );
    const calls: string[] = [];
    const counting = new Proxy(s, {
      get: (target, name) => {
        const v = Reflect.get(target, name);
        return typeof v === 'function'
          ? (...args: unknown[]) => {
              calls.push(String(name));
              return v.apply(target, args);
            }
          : v;
      },
    });
    const r = await createRecorder(counting, planOf([...creates, ...noops]), desired, 'r', () => 5);
    calls.length = 0;
    // what the executor does when the queue starts several actions in one turn
    await Promise.all(
      creates.map(async (a) => {
        await r.beforeStart(a);
        // durable before the request is sent: visible once this action's hook resolves
        expect((await s.pending()).map((p) => p.key)).toContain(a.key);
      }),
    );
    expect(calls.filter((c) => c !== 'pending')).toEqual(['batch']);
    calls.length = 0;
    await Promise.all([...creates, ...noops].map((a) => r.settled(a, ok)));
    expect(calls).toEqual(['batch']);
    expect(await s.pending()).toEqual([]);
    expect((await s.inventory()).map((e) => e.key)).toEqual(
      ['a', 'b', 'c', 'd', 'e'].map((n) => `Workspace/p/${n}`),
    );
    // a noop's outcome says nothing (in sync): only what the state did not know is written
    expect((await s.outcomes()).map((o) => o.actionId).sort()).toEqual(
      creates.map((a) => a.id).sort(),
    );
    expect([...(await s.lastApplied()).keys()].sort()).toEqual(
      ['a', 'b', 'c', 'd', 'e'].map((n) => `Workspace/p/${n}`),
    );
  });

  it('writes nothing for a noop whose inventory entry and last-applied manifest are current', async () => {
    const s = await places.open();
    const noops = ['d', 'e'].map((n) => act(`Workspace/p/${n}#noop`, [], 'noop'));
    const desired = new Map(noops.map((a) => [a.key, m.workspace('p', a.target.name)]));
    const first = await createRecorder(s, planOf(noops), desired, 'r1', () => 5);
    await Promise.all(noops.map((a) => first.settled(a, ok)));
    let batches = 0;
    const counting = new Proxy(s, {
      get: (target, name) => {
        const v = Reflect.get(target, name);
        if (name === 'batch') batches++;
        return typeof v === 'function' ? v.bind(target) : v;
      },
    });
    const again = await createRecorder(counting, planOf(noops), desired, 'r2', () => 6);
    await Promise.all(noops.map((a) => again.settled(a, ok)));
    expect(batches).toBe(0);
    expect(await s.outcomes()).toEqual([]);
  });

  it("commits an answered action's settle with the next action's pending record, one commit each", async () => {
    const s = await places.open();
    const creates = ['a', 'b', 'c'].map((n) => act(`Workspace/p/${n}#create`, [], 'create'));
    const desired = new Map(creates.map((a) => [a.key, m.workspace('p', a.target.name)]));
    let batches = 0;
    const counting = new Proxy(s, {
      get: (target, name) => {
        const v = Reflect.get(target, name);
        if (name === 'batch') {
          return (writes: StateWrite[]) => {
            batches++;
            return target.batch(writes);
          };
        }
        return typeof v === 'function' ? v.bind(target) : v;
      },
    });
    const r = await createRecorder(counting, planOf(creates), desired, 'r', () => 5);
    const sent: string[][] = [];
    await executePlan(
      planOf(creates),
      {
        // what the store holds when the request is sent; the answer comes in a later turn
        perform: async () => {
          sent.push((await s.pending()).map((p) => p.key));
          await new Promise((resolve) => setImmediate(resolve));
          return {};
        },
        beforeStart: r.beforeStart,
        settled: r.settled,
        clock: { now: () => 0, sleep: async () => {} },
      },
      { concurrency: 1 },
    );
    // each create's pending record was durable before its request (the one before it cleared)
    expect(sent).toEqual(creates.map((a) => [a.key]));
    // a's pending; a's settle with b's pending; b's settle with c's pending; c's settle
    expect(batches).toBe(4);
    expect(await s.pending()).toEqual([]);
    expect((await s.inventory()).map((e) => e.key)).toEqual(creates.map((a) => a.key));
  });

  it('fails every hook of a transaction that fails, and the next one commits anew', async () => {
    const s = await places.open();
    const [a, b, c] = ['a', 'b', 'c'].map((n) => act(`Workspace/p/${n}#create`, [], 'create'));
    const desired = new Map([a!, b!, c!].map((x) => [x.key, m.workspace('p', x.target.name)]));
    let refuse = true;
    const flaky = new Proxy(s, {
      get: (target, name) => {
        const v = Reflect.get(target, name);
        if (name === 'batch' && refuse) return async () => Promise.reject(new Error('disk full'));
        return typeof v === 'function' ? v.bind(target) : v;
      },
    });
    const r = await createRecorder(flaky, planOf([a!, b!, c!]), desired, 'r', () => 5);
    const results = await Promise.allSettled([r.beforeStart(a!), r.beforeStart(b!)]);
    expect(results.map((x) => x.status)).toEqual(['rejected', 'rejected']);
    refuse = false;
    await r.beforeStart(c!);
    expect((await s.pending()).map((p) => p.key)).toEqual(['Workspace/p/c']);
  });
});

const ok = { status: 'succeeded', elapsedMs: 1 } as const;
