import { describe, expect, it } from 'vitest';
import { ControllerLoop } from '../../src/controller/loop/loop.js';
import {
  baseOptions,
  FakeLeaseBoard,
  FakeSource,
  loopPorts,
  nextStep,
  recordingRun,
} from './helpers/fakes.js';

describe('leader election and shutdown', () => {
  it('a second replica stands by while the first leads, then takes over when it stops', async () => {
    const board = new FakeLeaseBoard();
    const source = new FakeSource();
    const runA = recordingRun();
    const runB = recordingRun();
    const a = loopPorts(source, runA.run, board.port('a'));
    const b = loopPorts(source, runB.run, board.port('b'));
    const loopA = new ControllerLoop(baseOptions, a.ports);
    const loopB = new ControllerLoop(baseOptions, b.ports);
    try {
      const first = nextStep(loopA);
      void loopA.start();
      await first;
      void loopB.start();
      await new Promise((r) => setTimeout(r, 80));
      expect(b.status.role).toBe('standby');
      expect(b.status.leaseHolder).toBe('a');
      expect(loopB.ready).toBe(false);
      expect(runB.calls).toHaveLength(0);
      const takeover = nextStep(loopB);
      await loopA.stop();
      expect(board.holderId).not.toBe('a'); // released on stop
      await takeover;
      expect(board.holderId).toBe('b');
      expect(loopB.ready).toBe(true);
      expect(runB.calls).toHaveLength(1);
    } finally {
      await Promise.all([loopA.stop(), loopB.stop()]);
    }
  });

  it('stop during a run aborts its signal, waits for it to finish, then releases the lease', async () => {
    const board = new FakeLeaseBoard();
    let started!: () => void;
    const running = new Promise<void>((r) => {
      started = r;
    });
    let finishedAfterAbort = false;
    const run = recordingRun(async (_req, signal) => {
      started();
      await new Promise((r) => signal.addEventListener('abort', r));
      await new Promise((r) => setTimeout(r, 30)); // the action in flight completes
      finishedAfterAbort = true;
      return {
        resources: [],
        inventory: [],
        diagnostics: [],
        drift: [],
        blocked: false,
        interrupted: true,
      };
    });
    const p = loopPorts(new FakeSource(), run.run, board.port('a'));
    const loop = new ControllerLoop(baseOptions, p.ports);
    void loop.start();
    await running;
    expect(board.holderId).toBe('a');
    await loop.stop();
    expect(finishedAfterAbort).toBe(true);
    expect(p.status.lastResult).toBe('interrupted');
    expect(board.holderId).toBeUndefined();
    expect(run.calls).toHaveLength(1); // no new run after stop
    expect(p.lines.some((l) => l.includes('"stopped"'))).toBe(true);
  });

  it('keeps trying when the state store fails to answer, instead of dying', async () => {
    let failures = 2;
    const lease = {
      tryAcquire: async () => {
        if (failures-- > 0) throw new Error('SQLITE_BUSY: database is locked');
        return true;
      },
      holder: async () => undefined,
      release: async () => {},
    };
    const p = loopPorts(new FakeSource(), recordingRun().run, lease);
    const loop = new ControllerLoop(baseOptions, p.ports);
    const step = nextStep(loop);
    void loop.start();
    try {
      expect((await step).result).toBe('succeeded');
      // logged once when it starts failing and once when it answers, not per attempt
      expect(p.lines.filter((l) => l.includes('"lease-error"'))).toHaveLength(1);
      expect(p.lines.filter((l) => l.includes('"lease-recovered"'))).toHaveLength(1);
    } finally {
      await loop.stop();
    }
  });
});
