import { describe, expect, it } from 'vitest';
import { type Budget, BudgetLimiter } from '../../src/providers/client/budget-limiter.js';
import { fakeClock as instantClock } from './helpers.js';

/** A fake clock whose sleeps also let the event loop turn, as a waiting limiter's real ones do. */
function fakeClock() {
  const clock = instantClock();
  return {
    ...clock,
    sleep: async (ms: number, signal?: AbortSignal) => {
      await new Promise((r) => setImmediate(r));
      await clock.sleep(ms, signal);
    },
  };
}

/** The most starts within any `windowMs` of `starts`. */
const busiest = (starts: readonly number[], windowMs: number) =>
  Math.max(...starts.map((t) => starts.filter((u) => u >= t && u < t + windowMs).length));

describe('a limiter whose budget changes while it runs', () => {
  it('starts at most cap requests in any window, and a smaller cap never adds to the old one', async () => {
    const clock = fakeClock();
    let budget: Budget = { cap: 4, windowMs: 1000 };
    const limiter = new BudgetLimiter({ budget: () => budget, clock, concurrency: 1 });
    const starts: number[] = [];
    const task = async () => {
      starts.push(clock.now());
      if (starts.length === 6) budget = { cap: 2, windowMs: 1000 };
    };
    await Promise.all(Array.from({ length: 14 }, () => limiter.add(task)));
    expect(starts).toHaveLength(14);
    expect(busiest(starts, 1000)).toBe(4);
    // after the change: never more than the new cap in a window that starts after it
    const changedAt = starts[5]!;
    expect(
      busiest(
        starts.filter((t) => t > changedAt),
        1000,
      ),
    ).toBe(2);
  });

  it('starts nothing while its budget is nought, and goes on once it has one', async () => {
    const clock = fakeClock();
    let budget: Budget = { cap: 0, windowMs: 1000 };
    const limiter = new BudgetLimiter({ budget: () => budget, clock, concurrency: 2 });
    let ran = 0;
    const done = limiter.add(async () => {
      ran++;
    });
    await new Promise((r) => setTimeout(r, 20));
    expect(ran).toBe(0);
    budget = { cap: 1, windowMs: 1000 };
    await done;
    expect(ran).toBe(1);
  });

  it('honours an abort while a request waits for its turn', async () => {
    const clock = fakeClock();
    const limiter = new BudgetLimiter({ budget: () => ({ cap: 0, windowMs: 1000 }), clock });
    const abort = new AbortController();
    const waiting = limiter.add(async () => 'sent', { signal: abort.signal });
    abort.abort(new Error('stop'));
    await expect(waiting).rejects.toThrow();
  });
});
