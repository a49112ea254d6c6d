import { describe, expect, it } from 'vitest';
import type { RunReport } from '../../src/controller/engine/ports.js';
import { ControllerLoop } from '../../src/controller/loop/loop.js';
import {
  baseOptions,
  FakeLeaseBoard,
  FakeSource,
  loopPorts,
  recordingRun,
} from './helpers/fakes.js';
import { ManualClock, settle } from './helpers/manual-clock.js';

const INTERRUPTED: RunReport = {
  resources: [],
  inventory: [],
  diagnostics: [],
  drift: [],
  blocked: false,
  interrupted: true,
};

/**
 * A run stuck in a wait that only the hard signal ends (a VPC deploying for an hour): the soft
 * stop lets it go on, as a running action should.
 */
function waitingRun() {
  const seen = {
    soft: false,
    hard: false,
    hardReason: undefined as unknown,
    /** Ends the wait as if the deploy finished. */
    finish: () => {},
  };
  const run = recordingRun(async (_req, signal, hard) => {
    signal.addEventListener('abort', () => {
      seen.soft = true;
    });
    await new Promise<void>((resolve) => {
      seen.finish = resolve;
      hard?.addEventListener('abort', () => {
        seen.hard = true;
        seen.hardReason = hard.reason;
        resolve();
      });
    });
    return INTERRUPTED;
  });
  return { run, seen };
}

function loopWith(run: ReturnType<typeof recordingRun>, shutdownTimeoutMs?: number) {
  const clock = new ManualClock();
  const board = new FakeLeaseBoard();
  const p = loopPorts(new FakeSource(), run.run, board.port('a'));
  const loop = new ControllerLoop(
    {
      ...baseOptions,
      runTimeoutMs: 3_600_000,
      ...(shutdownTimeoutMs !== undefined ? { shutdownTimeoutMs } : {}),
    },
    { ...p.ports, clock },
  );
  return { loop, clock, board, ...p };
}

describe('shutdown timeout', () => {
  it('cuts a wait still running when the shutdown timeout passes, records interrupted, releases', async () => {
    const { run, seen } = waitingRun();
    const { loop, clock, board, status, lines } = loopWith(run, 25_000);
    void loop.start();
    await settle();
    expect(run.calls).toHaveLength(1);
    let stopped = false;
    const stopping = loop.stop().then(() => {
      stopped = true;
    });
    await settle();
    expect(seen.soft).toBe(true);
    // within the grace period the wait goes on: a short deploy can still finish and be recorded
    await clock.advance(24_000);
    expect(seen.hard).toBe(false);
    expect(stopped).toBe(false);
    await clock.advance(1_000);
    await stopping;
    expect(seen.hard).toBe(true);
    expect(String(seen.hardReason)).toMatch(/shutdown took longer than 25000 ms/);
    expect(status.lastResult).toBe('interrupted');
    expect(board.holderId).toBeUndefined();
    expect(lines.some((l) => l.includes('"event":"shutdown-timeout"'))).toBe(true);
  });

  it('without a shutdown timeout, never cuts the wait (the old behaviour, for tests and --once)', async () => {
    const { run, seen } = waitingRun();
    const { loop, clock } = loopWith(run);
    void loop.start();
    await settle();
    const stopping = loop.stop();
    await clock.advance(10 * 3_600_000);
    expect(seen.soft).toBe(true);
    expect(seen.hard).toBe(false);
    seen.finish();
    await stopping;
  });
});
