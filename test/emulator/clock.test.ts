import { afterEach, describe, expect, it, vi } from 'vitest';
import { EmulatorClock } from '../../src/emulator/clock.js';

describe('EmulatorClock', () => {
  afterEach(() => vi.useRealTimers());

  it('runs at its speed, adds manual advances, and resets to real time', () => {
    vi.useFakeTimers({ now: 1_000_000, toFake: ['Date'] });
    const clock = new EmulatorClock({ speed: 10 });
    expect(clock.now()).toBe(1_000_000);
    vi.setSystemTime(1_001_000);
    expect(clock.now()).toBe(1_010_000);
    expect(clock.advance(60)).toBe(1_070_000);
    expect(() => clock.advance(-1)).toThrow(TypeError);
    clock.reset();
    expect(clock.now()).toBe(1_001_000);
    expect(() => new EmulatorClock({ speed: 0 })).toThrow(/speed/);
  });

  it('resumes from a persisted offset', () => {
    vi.useFakeTimers({ now: 5_000, toFake: ['Date'] });
    expect(new EmulatorClock({ offsetMs: 3_000 }).now()).toBe(8_000);
  });

  it('works handed around detached, as the engine passes clock.now and clock.sleep', async () => {
    const { now, sleep } = new EmulatorClock({ start: 1_000, speed: 1000 });
    expect(now()).toBeGreaterThanOrEqual(1_000);
    await sleep(1_000);
    expect(now()).toBeGreaterThanOrEqual(2_000);
  });

  it('sleeps until its own time has moved on, though a timer fires before Date.now() does', async () => {
    // Node's timers run on a monotonic clock: a 1 ms timer can fire while Date.now() still reads
    // the millisecond it was set in (in CI the sleep above once returned at 1,000). Date frozen:
    vi.useFakeTimers({ now: 0, toFake: ['Date'] });
    const clock = new EmulatorClock({ start: 1_000, speed: 1000 });
    let woke = false;
    const slept = clock.sleep(1_000).then(() => {
      woke = true;
    });
    await new Promise((r) => setTimeout(r, 20));
    expect(woke).toBe(false);
    vi.setSystemTime(1);
    await slept;
    expect(clock.now()).toBe(2_000);
  });

  it('wakes a sleeper at once when an advance reaches its time, and only then', async () => {
    // speed 1: without the wake these sleeps would take a real minute and an hour
    const clock = new EmulatorClock({ start: 0 });
    const woke: string[] = [];
    const minute = clock.sleep(60_000).then(() => woke.push('minute'));
    const hour = clock.sleep(3_600_000).then(() => woke.push('hour'));
    clock.advance(30);
    await new Promise((r) => setTimeout(r, 20));
    expect(woke).toEqual([]);
    clock.advance(30);
    await minute;
    expect(woke).toEqual(['minute']);
    clock.advance(3_540);
    await hour;
    expect(woke).toEqual(['minute', 'hour']);
  });

  it('lets an aborted sleeper go without waking it on an advance', async () => {
    const clock = new EmulatorClock({ start: 0 });
    const stop = new AbortController();
    const slept = clock.sleep(60_000, stop.signal);
    stop.abort(new Error('stopped'));
    await expect(slept).rejects.toThrow('stopped');
    clock.advance(60);
    await expect(slept).rejects.toThrow('stopped');
  });
});
