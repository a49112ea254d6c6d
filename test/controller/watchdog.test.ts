import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/controller/engine/ports.js';
import { Heartbeat } from '../../src/controller/loop/heartbeat.js';
import { ControllerLoop } from '../../src/controller/loop/loop.js';
import {
  baseOptions,
  FakeLeaseBoard,
  FakeSource,
  loopPorts,
  recordingRun,
  stopLoopsAfterEach,
} from './helpers/fakes.js';
import { ManualClock, settle } from './helpers/manual-clock.js';

const EMPTY: RunReport = {
  resources: [],
  inventory: [],
  diagnostics: [],
  drift: [],
  blocked: false,
  interrupted: false,
};
const THRESHOLD = 10_000;

const track = stopLoopsAfterEach();

/** A loop on a manual clock with a watchdog of {@link THRESHOLD}. */
function watchedLoop(run: ReturnType<typeof recordingRun>) {
  const clock = new ManualClock();
  const heartbeat = new Heartbeat({ thresholdMs: THRESHOLD, now: () => clock.now() });
  const { ports } = loopPorts(new FakeSource(), run.run, new FakeLeaseBoard().port('a'));
  const loop = new ControllerLoop(
    { ...baseOptions, intervalMs: 60_000, runTimeoutMs: 3_600_000 },
    { ...ports, clock, heartbeat },
  );
  track(loop);
  return { loop, clock, heartbeat };
}

/** Advances the clock `total` ms in steps of `step`, checking health after each. */
async function advanceWatching(clock: ManualClock, hb: Heartbeat, total: number, step: number) {
  const seen: boolean[] = [];
  for (let t = 0; t < total; t += step) {
    await clock.advance(step);
    seen.push(hb.check().ok);
  }
  return seen;
}

describe('Heartbeat', () => {
  it('is alive up to the threshold and stuck past it, saying for how long and after what', () => {
    let now = 0;
    const beats: number[] = [];
    const hb = new Heartbeat({ thresholdMs: 1000, now: () => now, onBeat: (t) => beats.push(t) });
    hb.beat('fetch');
    now = 1000;
    expect(hb.check()).toEqual({ ok: true, heartbeatAgeMs: 1000 });
    now = 2500;
    expect(hb.check()).toEqual({
      ok: false,
      heartbeatAgeMs: 2500,
      reason:
        'the reconcile loop has not made progress for 2.5s (threshold 1s); last heartbeat: fetch',
    });
    hb.beat('idle');
    expect(hb.check().ok).toBe(true);
    expect(beats).toEqual([0, 0, 2500]);
  });
});

describe('the loop beats the watchdog', () => {
  it('while idle between runs, however long the interval', async () => {
    const { loop, clock, heartbeat } = watchedLoop(recordingRun());
    void loop.start();
    await settle();
    // one interval and a half: a loop asleep for a minute is not stuck
    expect(await advanceWatching(clock, heartbeat, 90_000, 2_000)).not.toContain(false);
  });

  it('while a run waits a long time on a deployment that keeps answering', async () => {
    let polls = 0;
    const { loop, clock, heartbeat } = watchedLoop(
      recordingRun(async (req, signal) => {
        // a VPC deploying for ten minutes, polled every 2 s; each answer is progress
        for (; polls < 300; polls++) {
          req.heartbeat?.('wait');
          await clock.sleep(2_000, signal);
        }
        return EMPTY;
      }),
    );
    void loop.start();
    await settle();
    expect(await advanceWatching(clock, heartbeat, 120_000, 2_000)).not.toContain(false);
    expect(polls).toBeGreaterThan(50);
  });

  it('not while a run hangs on a request that never answers: stuck past the threshold', async () => {
    let hung = false;
    const { loop, clock, heartbeat } = watchedLoop(
      recordingRun(async (_req, signal) => {
        hung = true;
        // no timeout, no answer; only the test's stop (afterEach) ends it
        return new Promise<RunReport>((r) =>
          signal.addEventListener('abort', () => r({ ...EMPTY, interrupted: true })),
        );
      }),
    );
    void loop.start();
    await settle();
    expect(hung).toBe(true);
    const seen = await advanceWatching(clock, heartbeat, THRESHOLD + 4_000, 2_000);
    expect(seen.slice(0, 5)).toEqual([true, true, true, true, true]);
    expect(seen.at(-1)).toBe(false);
    const check = heartbeat.check();
    expect(check.ok).toBe(false);
    expect(check.ok === false && check.reason).toMatch(/last heartbeat: run/);
  });
});
