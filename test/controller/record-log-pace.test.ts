import { Writable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { ResourceReport, RunReport } from '../../src/controller/engine/ports.js';
import { BackoffTracker } from '../../src/controller/loop/backoff.js';
import type { StepPorts } from '../../src/controller/loop/ports.js';
import { record } from '../../src/controller/loop/run-record.js';
import { ControllerMetrics } from '../../src/controller/status/metrics.js';
import { initialStatus } from '../../src/controller/status/status.js';
import { systemClock } from '../../src/core/clock.js';
import { createLogger } from '../../src/core/logger.js';
import { runReport } from './helpers/fakes.js';

/** A log destination that takes a line only when the test says so (a slow pipe's reader). */
function heldDestination() {
  const held: (() => void)[] = [];
  const lines: string[] = [];
  let most = 0;
  const destination = new Writable({
    highWaterMark: 1024,
    write(chunk, _enc, cb) {
      held.push(() => {
        lines.push(String(chunk));
        cb();
      });
    },
  });
  // a line written while one is held waits in the stream's buffer: count them both
  const waiting = () => destination.writableLength;
  const take = () => held.shift()?.();
  return {
    destination,
    lines,
    take,
    /** The most bytes the stream held at once, sampled as the test takes lines. */
    most: () => most,
    sample: () => {
      most = Math.max(most, waiting());
    },
    pending: () => held.length,
  };
}

const turn = () => new Promise<void>((r) => setImmediate(r));

function report(n: number): RunReport {
  const resources: ResourceReport[] = [];
  for (let i = 0; i < n; i++) {
    resources.push({
      key: `Workspace/p/ws-${i}`,
      kind: 'Workspace',
      action: i % 2 === 0 ? 'create' : 'noop',
      reason: 'absent',
      message: `workspace p/ws-${i} does not exist on the platform`,
      outcome: i === 10 ? 'failed' : 'succeeded',
      ...(i === 10 ? { error: 'boom' } : {}),
    });
  }
  return runReport(resources);
}

function ports(logger: ReturnType<typeof createLogger>): StepPorts {
  return {
    clock: systemClock,
    logger,
    metrics: new ControllerMetrics(),
    backoff: new BackoffTracker({ baseMs: 20, maxMs: 200 }),
    status: initialStatus('fake', { suspended: false, dryRun: false, selfHeal: true }),
    memory: {},
  } as unknown as StepPorts;
}

describe("recording a run's resource lines", () => {
  it('writes them as fast as the log destination takes them, not all at once into memory', async () => {
    const d = heldDestination();
    const p = ports(createLogger({ destination: d.destination }));
    const n = 4000;
    const done = Promise.resolve(
      record(report(n), { applying: true, suspended: false }, 'r1', 'run-1', p, { selfHeal: true }),
    );
    let finished = false;
    void done.then(() => {
      finished = true;
    });
    // take the lines one at a time, giving the recorder turns in between
    for (let guard = 0; !finished && guard < 100_000; guard++) {
      d.sample();
      d.take();
      await turn();
    }
    await done;
    while (d.pending() > 0) d.take();
    // 2,000 lines of about 200 bytes (400 KB) were to be written: a batch and the high-water
    // mark wait at most, not all of them
    expect(d.most()).toBeLessThan(120_000);
    const events = d.lines.map((l) => JSON.parse(l) as { event: string; resource: string });
    const resources = events.filter((e) => e.event === 'resource' || e.event === 'resource-failed');
    expect(resources).toHaveLength(n / 2 + 1);
    // the report's order, the failure's warning before its resource line
    expect(resources.slice(5, 7).map((e) => [e.event, e.resource])).toEqual([
      ['resource-failed', 'Workspace/p/ws-10'],
      ['resource', 'Workspace/p/ws-10'],
    ]);
    expect(resources.map((e) => e.resource)).toEqual(
      resources
        .map((e) => e.resource)
        .sort((a, b) => Number(a.split('-')[1]) - Number(b.split('-')[1])),
    );
    expect(await done).toBe('failed');
  });

  it('leaves status as it was until the lines are written', async () => {
    const d = heldDestination();
    const p = ports(createLogger({ destination: d.destination }));
    const done = Promise.resolve(
      record(report(4000), { applying: true, suspended: false }, 'r1', 'run-1', p, {
        selfHeal: true,
      }),
    );
    await turn();
    expect(p.status.lastAttemptedRevision).toBeUndefined();
    expect(p.status.resources).toEqual([]);
    for (let i = 0; i < 100_000 && d.pending() > 0; i++) {
      d.take();
      await turn();
    }
    await done;
    expect(p.status.lastAttemptedRevision).toBe('r1');
    expect(p.status.resources).toHaveLength(2000);
  });
});
