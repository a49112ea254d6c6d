import { describe, expect, it } from 'vitest';
import { ControllerControls } from '../../src/controller/http/controls.js';
import { BackoffTracker } from '../../src/controller/loop/backoff.js';
import type { ControllerLoop } from '../../src/controller/loop/loop.js';
import { IntentBook } from '../../src/controller/status/intent.js';
import { ControllerMetrics } from '../../src/controller/status/metrics.js';
import type { StepMemory } from '../../src/controller/status/status.js';
import { initialStatus } from '../../src/controller/status/status.js';
import { memoryLogger, recordingRun } from './helpers/fakes.js';

/** The gauge's current value as Prometheus would scrape it. */
async function suspendedGauge(metrics: ControllerMetrics): Promise<number | undefined> {
  const m = await metrics.registry.getSingleMetric('platctl_controller_suspended')?.get();
  return m?.values[0]?.value;
}

function controls(suspendFlag: boolean) {
  const metrics = new ControllerMetrics();
  const status = initialStatus('fake', { suspended: suspendFlag, dryRun: false, selfHeal: true });
  const memory: StepMemory = {};
  const triggers: string[] = [];
  // a loop that never runs: whatever the gauge shows comes from the verb itself
  const loop = { trigger: (reason: string) => triggers.push(reason) } as unknown as ControllerLoop;
  const c = new ControllerControls({
    status,
    memory,
    backoff: new BackoffTracker({ baseMs: 10, maxMs: 100 }),
    loop,
    run: recordingRun().run,
    state: { runs: async () => [], lastApplied: async () => new Map() },
    logger: memoryLogger().logger,
    metrics,
    suspendFlag,
    selfHeal: true,
    prune: false,
    intent: new IntentBook(
      { approvals: true, read: async () => undefined, write: async () => {} },
      memory,
    ),
    elsewhere: async () => undefined,
    persist: async () => {},
  });
  return { c, metrics, triggers };
}

describe('platctl_controller_suspended', () => {
  it('turns 1 the moment ctl suspend answers and 0 the moment resume does, before any run', async () => {
    const { c, metrics, triggers } = controls(false);
    await c.suspend();
    expect(await suspendedGauge(metrics)).toBe(1);
    await c.resume();
    expect(await suspendedGauge(metrics)).toBe(0);
    expect(triggers).toEqual(['resumed']); // the run resume asks for has not happened here
  });

  it('stays 1 after resume while --suspend still holds', async () => {
    const { c, metrics } = controls(true);
    await c.suspend();
    await c.resume();
    expect(await suspendedGauge(metrics)).toBe(1);
  });
});
