import { describe, expect, it } from 'vitest';
import { PlatctlError } from '../../src/core/errors.js';
import type { Action } from '../../src/model/action.js';
import type { RunEvent } from '../../src/reconcile/events.js';
import { executePlan } from '../../src/reconcile/executor.js';
import { act, deferred, fakeClock, planOf } from './helpers.js';

/** A recording fake: which actions ran, in which order, with how many at once. */
function recorder(fail: Set<string> = new Set()) {
  const started: string[] = [];
  let running = 0;
  let peak = 0;
  return {
    started,
    peak: () => peak,
    perform: async (a: Action) => {
      started.push(a.id);
      running++;
      peak = Math.max(peak, running);
      await Promise.resolve();
      await Promise.resolve();
      running--;
      if (fail.has(a.id)) throw new PlatctlError('api', `409 updating ${a.key}: conflict`);
      return {};
    },
  };
}

describe('executePlan', () => {
  it('runs dependencies first and independent branches all the same', async () => {
    const r = recorder();
    const plan = planOf([
      act('W/a#create', [], 'create'),
      act('I/a#create', ['W/a#create'], 'create'),
      act('X/b#update'),
    ]);
    const out = await executePlan(plan, { perform: r.perform, clock: fakeClock() });
    expect([...out.values()].every((o) => o.status === 'succeeded')).toBe(true);
    expect(r.started.indexOf('W/a#create')).toBeLessThan(r.started.indexOf('I/a#create'));
  });

  it('skips only the dependents of a failed action and names the root once', async () => {
    const r = recorder(new Set(['A/x#update']));
    const plan = planOf([
      act('A/x#update'),
      act('B/y#update', ['A/x#update']),
      act('C/z#update', ['B/y#update']),
      act('D/w#update'),
    ]);
    const out = await executePlan(plan, { perform: r.perform, clock: fakeClock() });
    expect(out.get('A/x#update')).toMatchObject({ status: 'failed', code: 'api' });
    expect(out.get('B/y#update')).toEqual({ status: 'skipped', because: 'A/x#update' });
    expect(out.get('C/z#update')).toEqual({ status: 'skipped', because: 'A/x#update' });
    expect(out.get('D/w#update')).toMatchObject({ status: 'succeeded' });
    expect(r.started).not.toContain('B/y#update');
    const failed = [...out.values()].filter((o) => o.status === 'failed');
    expect(failed).toHaveLength(1);
  });

  it('starts no action once canWrite says no (a lost lease): the rest are not-started', async () => {
    const r = recorder();
    let leads = true;
    const plan = planOf([
      act('A/a#update'),
      act('B/b#update', ['A/a#update']),
      act('C/c#delete', ['B/b#update'], 'delete'),
    ]);
    const out = await executePlan(
      plan,
      {
        perform: async (a, progress) => {
          const done = await r.perform(a);
          leads = false; // the deadline passes while the first action runs
          progress('done');
          return done;
        },
        canWrite: () => leads,
        clock: fakeClock(),
      },
      { concurrency: 1 },
    );
    expect(r.started).toEqual(['A/a#update']);
    expect(out.get('A/a#update')).toMatchObject({ status: 'succeeded' });
    expect(out.get('B/b#update')).toEqual({ status: 'not-started' });
    expect(out.get('C/c#delete')).toEqual({ status: 'not-started' });
  });

  it('never runs more actions at once than the concurrency', async () => {
    const r = recorder();
    const plan = planOf(Array.from({ length: 20 }, (_, i) => act(`K/n${i}#update`)));
    await executePlan(plan, { perform: r.perform, clock: fakeClock() }, { concurrency: 3 });
    expect(r.started).toHaveLength(20);
    expect(r.peak()).toBe(3);
  });

  it('on abort starts nothing new, lets running actions finish and records them', async () => {
    const gate = deferred();
    const stop = new AbortController();
    const started: string[] = [];
    const events: RunEvent[] = [];
    const plan = planOf([act('A/a#update'), act('B/b#update', ['A/a#update']), act('C/c#update')]);
    const done = executePlan(
      plan,
      {
        perform: async (a) => {
          started.push(a.id);
          if (a.id === 'A/a#update') {
            stop.abort();
            await gate.promise;
          }
          return {};
        },
        clock: fakeClock(),
        events: (e) => events.push(e),
      },
      { concurrency: 1, signal: stop.signal },
    );
    gate.resolve();
    const out = await done;
    expect(started).toEqual(['A/a#update']);
    expect(out.get('A/a#update')?.status).toBe('succeeded');
    expect(out.get('B/b#update')).toEqual({ status: 'not-started' });
    expect(out.get('C/c#update')).toEqual({ status: 'not-started' });
    expect(events.filter((e) => e.type === 'finish')).toHaveLength(1);
  });

  it('completes noops without calling the provider and records every settle', async () => {
    const settled: string[] = [];
    const plan = planOf([act('A/a#noop', [], 'noop'), act('B/b#update', ['A/a#noop'])]);
    const out = await executePlan(plan, {
      perform: async () => ({}),
      settled: (a) => {
        settled.push(a.id);
      },
      clock: fakeClock(),
    });
    expect(out.get('A/a#noop')).toEqual({ status: 'succeeded', elapsedMs: 0 });
    expect(settled).toEqual(['A/a#noop', 'B/b#update']);
  });

  it('settles a noop without waiting for a place in the queue', async () => {
    const gate = deferred<void>();
    const settled: string[] = [];
    const plan = planOf([act('A/a#update'), act('B/b#noop', [], 'noop')]);
    const done = executePlan(
      plan,
      {
        perform: async () => {
          await gate.promise;
          return {};
        },
        settled: (a) => {
          settled.push(a.id);
        },
        clock: fakeClock(),
      },
      { concurrency: 1 },
    );
    // the only place is taken by the update, held until the gate opens
    for (let i = 0; i < 5; i++) await new Promise((r) => setImmediate(r));
    expect(settled).toEqual(['B/b#noop']);
    gate.resolve();
    const out = await done;
    expect(settled).toEqual(['B/b#noop', 'A/a#update']);
    expect(out.get('B/b#noop')).toEqual({ status: 'succeeded', elapsedMs: 0 });
  });

  it('stops starting actions when a state write fails, and rejects with that error', async () => {
    const performed: string[] = [];
    const plan = planOf([act('A/a#update'), act('B/b#update', ['A/a#update']), act('C/c#update')]);
    const refused = new Error('write refused: the run lease was lost');
    const run = executePlan(
      plan,
      {
        perform: async (a) => {
          performed.push(a.id);
          return {};
        },
        settled: (a) => {
          if (a.id === 'A/a#update') throw refused;
        },
        clock: fakeClock(),
      },
      { concurrency: 1 },
    );
    await expect(run).rejects.toBe(refused);
    expect(performed).toEqual(['A/a#update']);
  });

  it('rejects a bad concurrency with the value shown', async () => {
    await expect(
      executePlan(
        planOf([]),
        { perform: async () => ({}), clock: fakeClock() },
        { concurrency: 0 },
      ),
    ).rejects.toThrow('got 0');
  });
});
