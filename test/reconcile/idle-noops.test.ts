import { describe, expect, it } from 'vitest';
import type { Action } from '../../src/model/action.js';
import { executePlan } from '../../src/reconcile/executor.js';
import { createRecorder } from '../../src/reconcile/record.js';
import { openStateStore } from '../../src/state/index.js';
import { act, deferred, fakeClock, planOf } from './helpers.js';
import { m } from './manifests.js';

/** A resync's plan: `n` noops, each second one waiting on the one before it. */
function resync(n: number): Action[] {
  return Array.from({ length: n }, (_, i) =>
    act(`Workspace/p/ws-${i}#noop`, i % 2 === 1 ? [`Workspace/p/ws-${i - 1}#noop`] : [], 'noop'),
  );
}

describe('an idle resync settles its noops cheaply', () => {
  it('settles noops the state already knows within the call, without a promise each', async () => {
    const actions = resync(1_000);
    const finished: string[] = [];
    const run = executePlan(planOf(actions), {
      perform: async () => {
        throw new Error('a noop sends nothing');
      },
      settled: () => undefined, // nothing to write
      clock: fakeClock(),
      events: (e) => {
        if (e.type === 'finish') finished.push(e.action.id);
      },
    });
    // before the run's first await returns: every noop, dependents included, has settled
    expect(finished).toHaveLength(actions.length);
    const out = await run;
    expect([...out.keys()]).toEqual(actions.map((a) => a.id));
    expect([...out.values()].every((o) => o.status === 'succeeded')).toBe(true);
  });

  it('gives the event loop a turn between noops when asked (a lease renewal is a timer)', async () => {
    const actions = resync(1_000);
    let asked = 0;
    let turns = 0;
    let timerRan = -1;
    let settled = 0;
    setImmediate(() => {
      timerRan = settled;
    });
    const out = await executePlan(planOf(actions), {
      perform: async () => ({}),
      settled: () => {
        settled++;
      },
      clock: fakeClock(),
      pause: () => {
        if (++asked % 100 !== 0) return undefined;
        turns++;
        return new Promise<void>((resolve) => setImmediate(resolve));
      },
    });
    expect(out.size).toBe(actions.length);
    expect(turns).toBeGreaterThanOrEqual(9);
    // the timer due meanwhile ran while noops were still left to settle
    expect(timerRan).toBeGreaterThan(0);
    expect(timerRan).toBeLessThan(actions.length);
  });

  it('still waits for a noop whose writes are not durable before its dependents settle', async () => {
    const [first, second] = resync(2) as [Action, Action];
    const write = deferred();
    const finished: string[] = [];
    const run = executePlan(planOf([first, second]), {
      perform: async () => ({}),
      settled: (a) => (a.id === first.id ? write.promise : undefined),
      clock: fakeClock(),
      events: (e) => {
        if (e.type === 'finish') finished.push(e.action.id);
      },
    });
    await new Promise((r) => setImmediate(r));
    expect(finished).toEqual([]);
    write.resolve();
    await run;
    expect(finished).toEqual([first.id, second.id]);
  });

  it('the recorder answers a noop it has nothing to write for without a promise', async () => {
    const s = openStateStore(':memory:');
    const noop = act('Workspace/p/ws#noop', [], 'noop');
    const desired = new Map([[noop.key, m.workspace('p', 'ws')]]);
    const ok = { status: 'succeeded', elapsedMs: 0 } as const;
    const first = await createRecorder(s, planOf([noop]), desired, 'r1', () => 5);
    // not known yet: its inventory entry and last-applied manifest are written
    const writes = first.settled(noop, ok);
    expect(writes).toBeInstanceOf(Promise);
    await writes;
    const again = await createRecorder(s, planOf([noop]), desired, 'r2', () => 6);
    expect(again.settled(noop, ok)).toBeUndefined();
    await s.close();
  });
});
