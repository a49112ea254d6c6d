import { describe, expect, it } from 'vitest';
import { createRunPorts } from '../../src/reconcile/default-ports.js';
import { executePlan } from '../../src/reconcile/executor.js';
import { type CommitPacing, createRecorder } from '../../src/reconcile/record.js';
import { openStateStore } from '../../src/state/sqlite-store.js';
import type { StateStore, StateWrite } from '../../src/state/types.js';
import { act, planOf } from '../reconcile/helpers.js';
import { m } from '../reconcile/manifests.js';

const turn = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A clock moved by hand; its sleep lets `turns` turns of the event loop go by, then moves it on. */
function handClock(turns: number) {
  let now = 0;
  const slept: number[] = [];
  const pacing: CommitPacing = {
    gapMs: 4,
    sleep: async (ms) => {
      slept.push(ms);
      for (let i = 0; i < turns; i++) await turn();
      now += ms;
    },
  };
  const set = (t: number) => {
    now = t;
  };
  return { now: () => now, set, slept, pacing };
}

/** `store` with its transactions counted and each one's writes kept. */
function counted(store: StateStore) {
  const batches: StateWrite[][] = [];
  const proxy = new Proxy(store, {
    get: (target, name) => {
      if (name === 'batch') {
        return (writes: StateWrite[]) => {
          batches.push(writes);
          return target.batch(writes);
        };
      }
      const v = Reflect.get(target, name);
      return typeof v === 'function' ? v.bind(target) : v;
    },
  });
  return { store: proxy, batches };
}

describe('commits of a paced run', () => {
  it('share one commit for the answers of a gap, each pending record durable before its request', async () => {
    const s = openStateStore(':memory:');
    const creates = Array.from({ length: 8 }, (_, i) =>
      act(`Workspace/p/w${i}#create`, [], 'create'),
    );
    const desired = new Map(creates.map((a) => [a.key, m.workspace('p', a.target.name)]));
    const clock = handClock(20);
    const { store, batches } = counted(s);
    const r = await createRecorder(
      store,
      planOf(creates),
      desired,
      'r',
      clock.now,
      undefined,
      clock.pacing,
    );
    const durableAtSend = new Map<string, boolean>();
    await executePlan(
      planOf(creates),
      {
        // answered one a turn, as requests paced one a millisecond are
        perform: async (a) => {
          durableAtSend.set(
            a.key,
            (await s.pending()).some((p) => p.key === a.key),
          );
          for (let i = 0; i <= creates.indexOf(a); i++) await turn();
          return {};
        },
        beforeStart: r.beforeStart,
        settled: r.settled,
        clock: { now: clock.now, sleep: async () => {} },
      },
      { concurrency: 8 },
    );
    expect([...durableAtSend.values()]).toEqual(creates.map(() => true));
    // the 8 pending records together, then the 8 answers, one a turn, within one gap: 2 commits
    // (a commit each turn without the gap: 1 + 8)
    expect(batches).toHaveLength(2);
    expect(clock.slept).toEqual([4]);
    expect(await s.pending()).toEqual([]);
    expect((await s.inventory()).map((e) => e.key)).toEqual(creates.map((a) => a.key).sort());
  });

  it("stamps a pending record with its transaction's time, however long it waited for the gap", async () => {
    const s = openStateStore(':memory:');
    const [a, b] = ['a', 'b'].map((n) => act(`Workspace/p/${n}#create`, [], 'create'));
    const desired = new Map([a!, b!].map((x) => [x.key, m.workspace('p', x.target.name)]));
    const clock = handClock(1);
    const { store, batches } = counted(s);
    const r = await createRecorder(
      store,
      planOf([a!, b!]),
      desired,
      'r',
      clock.now,
      undefined,
      clock.pacing,
    );
    clock.set(100);
    await r.beforeStart(a!);
    // asked for at 101, committed at 104 (4 ms after the last commit): sent after 104, so the
    // object's createdAt proves it from 104 on, as for a record written at once
    clock.set(101);
    await r.beforeStart(b!);
    expect(batches.map((w) => w.map((x) => x.type === 'beginPending' && x.op.startedAt))).toEqual([
      [100],
      [104],
    ]);
    expect((await s.pending()).map((p) => [p.key, p.startedAt])).toEqual([
      [a!.key, 100],
      [b!.key, 104],
    ]);
  });

  it('commits in the next turn when no pacing is given, as an unpaced run does', async () => {
    const s = openStateStore(':memory:');
    const [a, b] = ['a', 'b'].map((n) => act(`Workspace/p/${n}#create`, [], 'create'));
    const desired = new Map([a!, b!].map((x) => [x.key, m.workspace('p', x.target.name)]));
    const { store, batches } = counted(s);
    const r = await createRecorder(store, planOf([a!, b!]), desired, 'r', () => 7);
    await r.beforeStart(a!);
    await r.beforeStart(b!);
    expect(batches).toHaveLength(2);
    expect((await s.pending()).map((p) => p.startedAt)).toEqual([7, 7]);
  });

  it('are paced for a run whose requests are (`rps`), and not otherwise', async () => {
    const state = openStateStore(':memory:');
    const base = { baseUrl: 'http://127.0.0.1:9', apiKey: 'k', state };
    const paced = createRunPorts({ ...base, rps: 1000 });
    const unpaced = createRunPorts(base);
    expect(paced.commitGapMs).toBe(4);
    expect(unpaced.commitGapMs).toBeUndefined();
    await paced.close();
    await unpaced.close();
  });
});
