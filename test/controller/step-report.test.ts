import { describe, expect, it } from 'vitest';
import { ControllerLoop } from '../../src/controller/loop/loop.js';
import type { StepOutcome } from '../../src/controller/loop/ports.js';
import {
  baseOptions,
  FakeLeaseBoard,
  FakeSource,
  loopPorts,
  nextStep,
  recordingRun,
  stopLoopsAfterEach,
} from './helpers/fakes.js';

const track = stopLoopsAfterEach();

describe("a step's report", () => {
  it('goes to a listener that waits for the step', async () => {
    const source = new FakeSource();
    const board = new FakeLeaseBoard();
    const { ports } = loopPorts(source, recordingRun().run, board.port('a'));
    const loop = new ControllerLoop(baseOptions, ports);
    track(loop);
    const waiting = nextStep(loop);
    void loop.start();
    const first = await waiting;
    expect(first.result).toBe('succeeded');
    expect(first.report).toMatchObject({ resources: [], blocked: false });
  });

  it('is let go before the status save when no listener waits (one added during the save gets the rest)', async () => {
    const source = new FakeSource();
    const board = new FakeLeaseBoard();
    const { ports } = loopPorts(source, recordingRun().run, board.port('a'));
    const seen: StepOutcome[] = [];
    const loop = new ControllerLoop(baseOptions, {
      ...ports,
      persist: async () => {
        if (seen.length === 0) loop.onStep((o) => seen.push(o));
      },
    });
    track(loop);
    void loop.start();
    await new Promise<void>((r) => {
      const t = setInterval(() => {
        if (seen.length > 0) {
          clearInterval(t);
          r();
        }
      }, 5);
    });
    expect(seen[0]?.result).toBe('succeeded');
    expect('report' in (seen[0] ?? {})).toBe(false);
  });
});
