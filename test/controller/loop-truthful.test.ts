import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/controller/engine/ports.js';
import { ControllerLoop } from '../../src/controller/loop/loop.js';
import {
  baseOptions,
  FakeLeaseBoard,
  FakeSource,
  loopPorts,
  nextStep,
  recordingRun,
  runReport,
  stopLoopsAfterEach,
} from './helpers/fakes.js';

/**
 * The loop reports what is true (issue 9, defects 5 and 7): a newest revision that stays rejected
 * keeps the source not ready and the run invalid even while the last good revision is resynced;
 * work postponed to the next run is progressing and comes back soon.
 */
const track = stopLoopsAfterEach();

function makeLoop(
  options: Partial<typeof baseOptions> & { progressingRequeueMs?: number } = {},
  run = recordingRun(),
) {
  const source = new FakeSource();
  const { ports, status } = loopPorts(source, run.run, new FakeLeaseBoard().port('a'));
  const loop = new ControllerLoop({ ...baseOptions, ...options }, ports);
  track(loop);
  return { loop, source, status, calls: run.calls, metrics: ports.metrics };
}

const EMPTY: RunReport = runReport();

describe('a newest revision that stays invalid', () => {
  it('keeps the source not ready and every resync invalid, while the last good one is resynced', async () => {
    const { loop, source, status, calls, metrics } = makeLoop();
    let step = nextStep(loop);
    void loop.start();
    expect((await step).result).toBe('succeeded');
    expect(status.sourceReady).toBe(true);
    source.set('bad2');
    for (let i = 0; i < 3; i++) {
      step = nextStep(loop);
      loop.trigger('resync');
      expect((await step).result).toBe('invalid');
      expect(status.sourceReady).toBe(false);
    }
    expect(calls.map((c) => c.revision)).toEqual(['r1', 'r1', 'r1']); // last good resynced
    const text = await metrics.registry.metrics();
    expect(text).toMatch(/platctl_reconcile_runs_total\{result="invalid"\} 3/);
    expect(text).toMatch(/platctl_source_not_ready 1/);
    source.set('r3');
    step = nextStep(loop);
    loop.trigger('push');
    expect((await step).result).toBe('succeeded');
    expect(status.sourceReady).toBe(true);
    expect(await metrics.registry.metrics()).toMatch(/platctl_source_not_ready 0/);
  });
});

describe('postponed work', () => {
  it('is progressing, not applied, and requeued soon instead of after the interval', async () => {
    let postponed = true;
    const run = recordingRun(async () => ({
      ...EMPTY,
      postponed: postponed ? ['ClusterControllers/p/c'] : [],
    }));
    const { loop, status } = makeLoop({ progressingRequeueMs: 30 }, run);
    const step = nextStep(loop);
    void loop.start();
    const o = await step;
    expect(o.result).toBe('progressing');
    expect(o.requeueAfterMs).toBe(30);
    expect(status.lastAppliedRevision).toBeUndefined();
    postponed = false;
    // no trigger: the requeue alone brings the next run, long before the 60 s interval
    expect((await nextStep(loop, () => true, 10_000)).result).toBe('succeeded');
    expect(status.lastAppliedRevision).toBe('r1');
  });
});

describe('a failed fetch', () => {
  it('counts a git fetch error and keeps the source not ready', async () => {
    const { loop, source, status, metrics } = makeLoop();
    source.failNext = true;
    const step = nextStep(loop);
    void loop.start();
    expect((await step).result).toBe('fetch-failed');
    expect(status.sourceReady).toBe(false);
    const text = await metrics.registry.metrics();
    expect(text).toMatch(/^platctl_git_fetch_errors_total 1$/m);
    expect(text).toMatch(/^platctl_git_fetch_duration_seconds_count\{outcome="error"\} 1$/m);
  });
});
