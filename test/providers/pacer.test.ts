import { describe, expect, it } from 'vitest';
import type { Clock } from '../../src/core/clock.js';
import { catchUpMs, createPacer, groupLeadMs } from '../../src/providers/client/pacer.js';
import { createRateLimiter } from '../../src/providers/client/rate-limiter.js';

/** A clock whose timers fire `lateMs` after they were due, as on a busy event loop. */
function lateClock(lateMs: number): Clock & { advance(ms: number): void } {
  let now = 1_700_000_000_000;
  return {
    now: () => now,
    advance: (ms) => {
      now += ms;
    },
    sleep: async (ms, signal) => {
      if (signal?.aborted) throw signal.reason;
      await Promise.resolve();
      now += ms + lateMs;
    },
  };
}

/** Starts `count` waiters on `gate` at once and records the clock at each start. */
async function startTimes(gate: () => Promise<void>, clock: Clock, count: number) {
  const starts: number[] = [];
  await Promise.all(
    Array.from({ length: count }, () => gate().then(() => starts.push(clock.now()))),
  );
  return starts;
}

/** The most starts in any window of `ms` (half-open), for sorted `starts`. */
function busiestWindow(starts: readonly number[], ms: number): number {
  let most = 0;
  let from = 0;
  for (let to = 0; to < starts.length; to++) {
    while (starts[to]! - starts[from]! >= ms) from++;
    most = Math.max(most, to - from + 1);
  }
  return most;
}

describe('the pacer', () => {
  it('keeps its rate when its timers fire late: the limiter sends 2,000 in 2 s at --rps 1000 on a busy loop', async () => {
    // p-queue's interval restarted from each late timer: 20 per 23 ms instead of 20 per 20 ms,
    // 770 requests/s for an engine at --rps 1000 that was 40 % idle.
    const clock = lateClock(3);
    const limiter = createRateLimiter({ rps: 1000, concurrency: 16, clock });
    const starts: number[] = [];
    await Promise.all(
      Array.from({ length: 2000 }, () => limiter.add(() => void starts.push(clock.now()))),
    );
    const span = starts.at(-1)! - starts[0]!;
    expect(span).toBeGreaterThanOrEqual(1999 - 3);
    expect(span).toBeLessThanOrEqual(2000 + 3);
    expect(busiestWindow(starts, 1000)).toBeLessThanOrEqual(1000);
  });

  it('spaces starts evenly when its timers are punctual', async () => {
    const clock = lateClock(0);
    const starts = await startTimes(createPacer(20, clock), clock, 12);
    const gaps = starts.slice(1).map((t, i) => t - starts[i]!);
    expect(gaps).toEqual(Array(11).fill(50));
  });

  it('never lets more than rps start in any rolling second, however late its timers', async () => {
    for (const late of [1, 7, 30, 400]) {
      const clock = lateClock(late);
      const starts = await startTimes(createPacer(40, clock), clock, 200);
      expect(busiestWindow(starts, 1000), `timers ${late} ms late`).toBeLessThanOrEqual(40);
      // at this rate a late timer is caught up by at most a sixth of the spacing
      const gaps = starts.slice(1).map((t, i) => t - starts[i]!);
      expect(Math.min(...gaps), `timers ${late} ms late`).toBeGreaterThanOrEqual(25 - 25 / 6);
      // a catch-up is a short burst, not a second's worth at once
      expect(busiestWindow(starts, 1), `timers ${late} ms late`).toBeLessThanOrEqual(
        Math.ceil((catchUpMs(40) * 40) / 1000) + 1,
      );
    }
  });

  it('starts the slots of 4 ms together at high rates: one wake for four starts at --rps 1000, never ahead of the group', async () => {
    // a wake each 1 ms slot was the engine's largest cost of pacing beside the state's commits
    const clock = lateClock(0);
    let wakes = 0;
    const counted: Clock = {
      now: clock.now,
      sleep: (ms, signal) => {
        wakes++;
        return clock.sleep(ms, signal);
      },
    };
    const t0 = clock.now();
    const starts = await startTimes(createPacer(1000, counted), clock, 2000);
    // the first starts alone (nothing else waited yet), the rest four a wake; a wake each on main
    expect(wakes).toBeLessThanOrEqual(1 + 2000 / 4);
    // each start at most 3 ms ahead of its own slot (start i's slot is t0 + i), none behind
    starts.forEach((t, i) => {
      expect(t, `start ${i}`).toBeGreaterThanOrEqual(t0 + i - 3);
      expect(t, `start ${i}`).toBeLessThanOrEqual(t0 + i);
    });
    expect(busiestWindow(starts, 1)).toBe(4);
    expect(busiestWindow(starts, 1000)).toBeLessThanOrEqual(1000);
    expect(groupLeadMs(1000)).toBe(3);
  });

  it('keeps one wake per slot where the slots are 4 ms apart or more', async () => {
    const clock = lateClock(0);
    const starts = await startTimes(createPacer(250, clock), clock, 50);
    expect(starts.slice(1).map((t, i) => t - starts[i]!)).toEqual(Array(49).fill(4));
    expect(groupLeadMs(250)).toBe(0);
    expect(groupLeadMs(20)).toBe(0);
  });

  it('paces a fractional rate as one start per 1000 / rps ms', async () => {
    const clock = lateClock(0);
    const starts = await startTimes(createPacer(0.5, clock), clock, 4);
    expect(starts.slice(1).map((t, i) => t - starts[i]!)).toEqual([2000, 2000, 2000]);
  });

  it('lets the first request after an idle spell go at once, and spaces the ones after it', async () => {
    const clock = lateClock(0);
    const gate = createPacer(10, clock);
    await gate();
    clock.advance(5_000);
    const idleEnd = clock.now();
    const starts = await startTimes(gate, clock, 3);
    expect(starts).toEqual([idleEnd, idleEnd + 100, idleEnd + 200]);
  });

  it('an abort while waiting rejects with the reason, starts nothing, and frees the slot', async () => {
    const clock = lateClock(0);
    const gate = createPacer(1, clock);
    await gate();
    const controller = new AbortController();
    const aborted = gate(controller.signal);
    const after = gate();
    controller.abort(new Error('stop'));
    await expect(aborted).rejects.toThrow('stop');
    const t0 = clock.now();
    await after;
    // the aborted waiter's slot went to the next one: one spacing after the first start, not two
    expect(clock.now() - t0).toBeLessThanOrEqual(1000);
    await expect(gate(AbortSignal.abort(new Error('already')))).rejects.toThrow('already');
  });

  it('listens once to a signal however many wait with it, and an abort rejects them all unsent', async () => {
    // every request of a run carries the run's signal: a listener per start showed in its profile
    const clock = lateClock(0);
    const gate = createPacer(1, clock);
    await gate();
    const controller = new AbortController();
    let listeners = 0;
    const add = controller.signal.addEventListener.bind(controller.signal);
    controller.signal.addEventListener = (...args: Parameters<typeof add>) => {
      listeners++;
      add(...args);
    };
    const aborted = Array.from({ length: 5 }, () => gate(controller.signal));
    const other = gate();
    expect(listeners).toBe(1);
    controller.abort(new Error('stop'));
    for (const p of aborted) await expect(p).rejects.toThrow('stop');
    const t0 = clock.now();
    await other;
    // the five aborted waiters' slots went to the next one: one spacing after the first start
    expect(clock.now() - t0).toBeLessThanOrEqual(1000);
  });

  it('starts a waiter whose signal never fires, and forgets it', async () => {
    const clock = lateClock(0);
    const gate = createPacer(1000, clock);
    const controller = new AbortController();
    await Promise.all(Array.from({ length: 8 }, () => gate(controller.signal)));
    // an abort after they started rejects nothing and starts nothing
    controller.abort(new Error('late'));
    await expect(gate()).resolves.toBeUndefined();
  });

  it('rejects a rate that is not a positive number, with the value', () => {
    const clock = lateClock(0);
    for (const bad of [0, -1, Number.NaN, Number.POSITIVE_INFINITY]) {
      expect(() => createPacer(bad, clock)).toThrow(`rps must be a positive number, got ${bad}`);
    }
  });
});
