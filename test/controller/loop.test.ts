import { describe, expect, it, vi } from 'vitest';
import { ControllerLoop } from '../../src/controller/loop/loop.js';
import { IntentBook } from '../../src/controller/status/intent.js';
import type { StepMemory } from '../../src/controller/status/status.js';
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

function makeLoop(
  options: Partial<typeof baseOptions> = {},
  run = recordingRun(),
  collect?: () => void,
) {
  const source = new FakeSource();
  const board = new FakeLeaseBoard();
  const { ports, status, lines } = loopPorts(source, run.run, board.port('a'));
  const loop = new ControllerLoop(
    { ...baseOptions, ...options },
    collect ? { ...ports, collect } : ports,
  );
  track(loop);
  return { loop, source, status, lines, calls: run.calls, board, ports };
}

describe('controller loop', () => {
  it('collects garbage once after each step, before it sleeps', async () => {
    let collections = 0;
    const { loop } = makeLoop({}, recordingRun(), () => collections++);
    const first = nextStep(loop);
    void loop.start();
    await first;
    await vi.waitFor(() => expect(collections).toBe(1));
    const second = nextStep(loop);
    loop.trigger('test');
    await second;
    await vi.waitFor(() => expect(collections).toBe(2));
  });

  it('applies a revision, then resyncs the same revision on trigger (level-based)', async () => {
    const { loop, source, status, calls } = makeLoop();
    const first = nextStep(loop);
    void loop.start();
    expect((await first).result).toBe('succeeded');
    expect(calls[0]).toMatchObject({ revision: 'r1', mode: 'apply', prune: true, skipKeys: [] });
    expect(status.lastAppliedRevision).toBe('r1');
    source.set('r2');
    const second = nextStep(loop);
    loop.trigger('test');
    await second;
    expect(calls.map((c) => c.revision)).toEqual(['r1', 'r2']);
    const third = nextStep(loop);
    loop.trigger('test');
    await third;
    expect(calls[2]).toMatchObject({ revision: 'r2', mode: 'apply' });
  });

  it('rejects an invalid revision, keeps the last good one, and applies the next good commit', async () => {
    const { loop, source, status, calls, lines } = makeLoop();
    const first = nextStep(loop);
    void loop.start();
    await first;
    source.set('bad3');
    let step = nextStep(loop);
    loop.trigger('push');
    expect((await step).result).toBe('invalid');
    expect(calls).toHaveLength(1); // nothing sent for the bad revision
    expect(status.rejectedRevisions).toEqual(['bad3']);
    expect(status.lastDiagnostics[0]).toMatchObject({ code: 'yaml-syntax', at: 'a.yaml:3:1' });
    expect(lines.some((l) => l.includes('"revision-rejected"'))).toBe(true);
    // a resync while the bad revision is newest reconciles the last good one
    step = nextStep(loop);
    loop.trigger('interval');
    await step;
    expect(calls[1]).toMatchObject({ revision: 'r1', dir: '/fake/r1' });
    expect(status.lastDiagnostics[0]).toMatchObject({ code: 'yaml-syntax' }); // still shown
    source.set('r4');
    step = nextStep(loop);
    loop.trigger('push');
    expect((await step).result).toBe('succeeded');
    expect(status.lastAppliedRevision).toBe('r4');
  });

  it('shows the rejected revision and only the latest run of the last good one, not every run', async () => {
    const warning = { severity: 'warning' as const, code: 'drift-suspended', message: 'w' };
    const run = recordingRun(async () => ({
      resources: [],
      inventory: [],
      diagnostics: [warning],
      drift: [],
      blocked: false,
      interrupted: false,
    }));
    const { loop, source, status } = makeLoop({}, run);
    let step = nextStep(loop);
    void loop.start();
    await step;
    source.set('bad3');
    step = nextStep(loop);
    loop.trigger('push');
    await step;
    for (let i = 0; i < 3; i++) {
      step = nextStep(loop);
      loop.trigger('interval');
      await step;
    }
    expect(status.lastDiagnostics.map((d) => d.code)).toEqual(['yaml-syntax', 'drift-suspended']);
  });

  it('passes self-heal to the engine; dry-run and suspend only plan', async () => {
    const a = makeLoop({ selfHeal: false });
    let step = nextStep(a.loop);
    void a.loop.start();
    await step;
    expect(a.calls[0]).toMatchObject({ mode: 'apply', selfHeal: false });

    const b = makeLoop({ dryRun: true });
    step = nextStep(b.loop);
    void b.loop.start();
    expect((await step).result).toBe('planned');
    expect(b.calls[0]?.mode).toBe('plan');

    const c = makeLoop();
    c.source.set('r9', true); // .platctl-suspend present in the revision
    step = nextStep(c.loop);
    void c.loop.start();
    await step;
    expect(c.calls[0]?.mode).toBe('plan');
    expect(c.status.suspended).toBe(true);
  });

  it('rejects a revision with no manifests at the path: nothing applied, nothing pruned', async () => {
    const { loop, source, calls, status } = makeLoop();
    source.set('empty1');
    const step = nextStep(loop);
    void loop.start();
    expect((await step).result).toBe('invalid');
    expect(calls).toEqual([]);
    expect(status.lastAppliedRevision).toBeUndefined();
    expect(status.rejectedRevisions).toEqual(['empty1']);
    expect(status.lastDiagnostics.map((d) => d.code)).toEqual(['no-manifests']);
  });

  it('backs off a failing resource and the run, then retries', async () => {
    let fail = true;
    const run = recordingRun(async () => ({
      resources: [
        {
          key: 'Workspace/p/w',
          kind: 'Workspace',
          action: 'create',
          reason: 'absent',
          message: 'create',
          outcome: fail ? 'failed' : 'succeeded',
          error: '500 creating workspace p/w',
        },
      ],
      inventory: [],
      diagnostics: [],
      drift: [],
      blocked: false,
      interrupted: false,
    }));
    const { loop, status, calls } = makeLoop({ backoff: { baseMs: 5_000, maxMs: 5_000 } }, run);
    let step = nextStep(loop);
    void loop.start();
    const o = await step;
    expect(o.result).toBe('failed');
    expect(o.requeueAfterMs).toBe(5_000); // run backoff, shorter than the interval
    expect(status.backoff['Workspace/p/w']).toBeGreaterThan(0);
    expect(status.lastAppliedRevision).toBeUndefined();
    fail = false;
    step = nextStep(loop);
    loop.trigger('test');
    await step;
    expect(calls[1]?.skipKeys).toEqual(['Workspace/p/w']);
  });

  it('counts a rejected newest revision as invalid even before any good one', async () => {
    const { loop, source, status, calls } = makeLoop();
    source.set('bad0');
    let step = nextStep(loop);
    void loop.start();
    expect((await step).result).toBe('invalid');
    step = nextStep(loop);
    loop.trigger('again');
    expect((await step).result).toBe('invalid');
    expect(status.lastResult).toBe('invalid');
    expect(calls).toEqual([]);
  });

  it('records a failed fetch and retries sooner than the interval', async () => {
    const { loop, source, status } = makeLoop();
    source.failNext = true;
    const step = nextStep(loop);
    void loop.start();
    const o = await step;
    expect(o.result).toBe('fetch-failed');
    expect(o.requeueAfterMs).toBe(20);
    expect(status.lastError).toContain('remote hung up');
    const next = await nextStep(loop);
    expect(next.result).toBe('succeeded');
    expect(status.lastError).toBeUndefined();
  });

  it('aborts a run that exceeds the run timeout', async () => {
    const run = recordingRun(
      (_req, signal) =>
        new Promise((resolve) => {
          signal.addEventListener('abort', () =>
            resolve({
              resources: [],
              inventory: [],
              diagnostics: [],
              drift: [],
              blocked: false,
              interrupted: true,
            }),
          );
        }),
    );
    const { loop } = makeLoop({ runTimeoutMs: 30 }, run);
    const step = nextStep(loop);
    void loop.start();
    expect((await step).result).toBe('interrupted');
  });
});

describe('what people asked, read for each run', () => {
  it('a suspension made while a run fetches holds for the revision that run fetched', async () => {
    // the operator suspends, then pushes: a run that started before the suspension and fetched
    // the push after it must not apply it
    let suspendedInStore = false;
    class SuspendWhileFetching extends FakeSource {
      override async fetch() {
        const snap = await super.fetch();
        suspendedInStore = true;
        return snap;
      }
    }
    const source = new SuspendWhileFetching();
    const { ports } = loopPorts(source, recordingRun().run, new FakeLeaseBoard().port('a'));
    const memory: StepMemory = {};
    const intent = new IntentBook(
      {
        approvals: true,
        read: async () => ({ version: 1, suspended: suspendedInStore }),
        write: async () => {},
      },
      memory,
    );
    const loop = new ControllerLoop(baseOptions, { ...ports, memory, intent });
    track(loop);
    const first = nextStep(loop);
    void loop.start();
    expect((await first).result).toBe('planned');
    expect(ports.status.suspended).toBe(true);
  });
});
