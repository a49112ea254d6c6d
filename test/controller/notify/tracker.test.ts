import { describe, expect, it } from 'vitest';
import type { StatusView, StepView } from '../../../src/controller/notify/alerts.js';
import { AlertTracker } from '../../../src/controller/notify/tracker.js';

/** A status as the controller leaves it after a run; only what alerts read. */
function status(over: Partial<StatusView> = {}): StatusView {
  return {
    source: 'git file:///repo.git#main:platform/',
    sourceReady: true,
    rejected: [],
    rejectedRevisions: [],
    drift: [],
    conditions: [],
    ...over,
  };
}

const ok = (revision: string): StepView => ({
  result: 'succeeded',
  runId: `run-${revision}`,
  revision,
  report: { drift: [], resources: [] },
});

const NOW = '2026-11-23T12:00:00.000Z';

describe('alerts from runs, deduplicated while a condition persists', () => {
  it('sends a rejected revision once while it stays HEAD, then one recovery when HEAD validates', () => {
    const t = new AlertTracker();
    expect(t.next(status({ lastAppliedRevision: 'a1' }), ok('a1'), NOW).map((a) => a.kind)).toEqual(
      ['revision-applied'],
    );
    const bad = status({
      lastAppliedRevision: 'a1',
      sourceReady: false,
      fetchedRevision: 'b2',
      rejectedRevisions: ['b2'],
      rejected: [
        {
          revision: 'b2',
          at: NOW,
          diagnostics: [{ message: 'unknown field descripton', at: 'ws.yaml:5:3' }],
        },
      ],
    });
    const first = t.next(bad, { result: 'invalid', runId: 'r2', revision: 'b2' }, NOW);
    expect(first).toHaveLength(1);
    expect(first[0]).toMatchObject({
      kind: 'revision-rejected',
      severity: 'error',
      revision: 'b2',
    });
    expect(first[0]?.details).toEqual(['ws.yaml:5:3: unknown field descripton']);
    // the resync of the last good revision, every interval: nothing new to say
    for (let i = 0; i < 3; i++) {
      expect(t.next(bad, { ...ok('a1'), result: 'invalid' }, NOW)).toEqual([]);
    }
    const good = status({ lastAppliedRevision: 'c3', fetchedRevision: 'c3' });
    const back = t.next(good, ok('c3'), NOW);
    expect(back.map((a) => [a.kind, a.recovered])).toEqual([
      ['recovered', 'revision-rejected'],
      ['revision-applied', undefined],
    ]);
    expect(t.next(good, ok('c3'), NOW)).toEqual([]);
  });

  it('a second bad revision is a new alert', () => {
    const t = new AlertTracker();
    const rejected = (rev: string) =>
      status({
        sourceReady: false,
        fetchedRevision: rev,
        rejectedRevisions: [rev],
        rejected: [{ revision: rev, at: NOW, diagnostics: [] }],
      });
    expect(t.next(rejected('b1'), { result: 'invalid' }, NOW)).toHaveLength(1);
    expect(t.next(rejected('b2'), { result: 'invalid' }, NOW)[0]?.revision).toBe('b2');
  });

  it('run failure: once per revision, recovery on the first run without failure', () => {
    const t = new AlertTracker();
    const failed: StepView = {
      result: 'failed',
      runId: 'r1',
      revision: 'a1',
      report: {
        drift: [],
        resources: [
          { key: 'Workspace/p/w', action: 'create', outcome: 'failed', error: 'HTTP 500' },
        ],
      },
    };
    const a = t.next(status(), failed, NOW);
    expect(a.map((x) => x.kind)).toEqual(['run-failed']);
    expect(a[0]).toMatchObject({ severity: 'error', resources: ['Workspace/p/w'] });
    expect(a[0]?.details).toEqual(['Workspace/p/w: HTTP 500']);
    expect(t.next(status(), failed, NOW)).toEqual([]);
    // an interrupted run neither fails nor recovers
    expect(t.next(status(), { result: 'interrupted', revision: 'a1' }, NOW)).toEqual([]);
    const fetch = t.next(
      status({ lastError: 'git fetch failed' }),
      { result: 'fetch-failed' },
      NOW,
    );
    expect(fetch.map((x) => [x.kind, x.summary])).toEqual([
      ['run-failed', 'fetching the source failed: git fetch failed'],
    ]);
    const rec = t.next(status({ lastAppliedRevision: 'a1' }), ok('a1'), NOW);
    expect(rec.map((x) => [x.kind, x.recovered])).toEqual([
      ['recovered', 'run-failed'],
      ['revision-applied', undefined],
    ]);
  });

  it('run failure on the same revision: again when the failing set grows, not when it shrinks', () => {
    const t = new AlertTracker();
    const failing = (keys: string[], runId = 'r'): StepView => ({
      result: 'failed',
      runId,
      revision: 'a1',
      report: {
        drift: [],
        resources: keys.map((key) => ({
          key,
          action: 'create',
          outcome: 'failed',
          error: 'HTTP 500',
        })),
      },
    });
    expect(t.next(status(), failing(['A']), NOW).map((x) => x.resources)).toEqual([['A']]);
    expect(t.next(status(), failing(['A']), NOW)).toEqual([]);
    // B fails too: alerted, naming only what is new
    const grown = t.next(status(), failing(['A', 'B']), NOW);
    expect(grown.map((x) => [x.kind, x.resources, x.details])).toEqual([
      ['run-failed', ['B'], ['B: HTTP 500']],
    ]);
    expect(grown[0]?.summary).toBe('run on revision a1 failed: 1 more resource(s) failed');
    // shrinks (A backs off, left out of the run), then A fails again: nothing new to say
    expect(t.next(status(), failing(['B']), NOW)).toEqual([]);
    expect(t.next(status(), failing([]), NOW)).toEqual([]);
    expect(t.next(status(), failing(['A', 'B']), NOW)).toEqual([]);
    expect(t.next(status(), failing(['C']), NOW).map((x) => x.resources)).toEqual([['C']]);
    // a restart seeded from the status re-sends nothing its failing conditions already show
    const restored = status({
      lastResult: 'failed',
      lastAttemptedRevision: 'a1',
      conditions: [
        { key: 'A', condition: 'Degraded', reason: 'ActionFailed' },
        { key: 'B', condition: 'Degraded', reason: 'BackingOff' },
      ],
    });
    const again = new AlertTracker();
    again.seed(restored);
    expect(again.next(restored, failing(['A', 'B']), NOW)).toEqual([]);
    expect(again.next(restored, failing(['A', 'D']), NOW).map((x) => x.resources)).toEqual([['D']]);
  });

  it('drift not corrected: new keys alerted once, recovery when it is all gone', () => {
    const t = new AlertTracker();
    const drifted = (keys: string[]): [StatusView, StepView] => [
      status({
        drift: keys,
        conditions: keys.map((key) => ({ key, condition: 'Drifted', reason: 'Drift' })),
      }),
      { result: 'planned', runId: 'r', revision: 'a1', report: { drift: keys, resources: [] } },
    ];
    const one = t.next(...drifted(['A']), NOW);
    expect(one.map((x) => [x.kind, x.severity, x.resources])).toEqual([
      ['drift-detected', 'warning', ['A']],
    ]);
    expect(t.next(...drifted(['A']), NOW)).toEqual([]);
    expect(t.next(...drifted(['A', 'B']), NOW).map((x) => x.resources)).toEqual([['B']]);
    expect(t.next(...drifted(['B']), NOW)).toEqual([]);
    // a run that did not observe (fetch failed) says nothing about drift
    expect(t.next(status(), { result: 'fetch-failed' }, NOW).map((x) => x.kind)).toEqual([
      'run-failed',
    ]);
    const gone = t.next(status(), ok('a1'), NOW);
    expect(gone.map((x) => [x.kind, x.recovered])).toEqual([
      ['recovered', 'run-failed'],
      ['recovered', 'drift-detected'],
    ]);
  });

  it('drift corrected is info, not re-sent while the same fight goes on', () => {
    const t = new AlertTracker();
    const healed: [StatusView, StepView] = [
      status({
        drift: ['A'],
        conditions: [{ key: 'A', condition: 'Ready', reason: 'DriftCorrected' }],
      }),
      { result: 'succeeded', revision: 'a1', report: { drift: ['A'], resources: [] } },
    ];
    const a = t.next(...healed, NOW);
    expect(a.map((x) => [x.kind, x.severity])).toEqual([['drift-detected', 'info']]);
    expect(a[0]?.summary).toMatch(/corrected/);
    expect(t.next(...healed, NOW)).toEqual([]);
    expect(t.next(status(), ok('a1'), NOW)).toEqual([]);
    expect(t.next(...healed, NOW)).toHaveLength(1);
  });

  it('prune held: once per set of keys, recovery when no longer held', () => {
    const t = new AlertTracker();
    const held: StepView = {
      result: 'prune-blocked',
      runId: 'r9',
      revision: 'a1',
      report: {
        drift: [],
        resources: [],
        pruneHeld: { count: 7, limit: 5, keys: ['K1', 'K2'], message: '7 deletions over 5' },
      },
    };
    const a = t.next(status(), held, NOW);
    expect(a.map((x) => [x.kind, x.severity])).toEqual([['prune-blocked', 'warning']]);
    expect(a[0]?.details.join('\n')).toContain('platctl ctl approve-prune r9');
    expect(t.next(status(), { ...held, runId: 'r10' }, NOW)).toEqual([]);
    expect(t.next(status(), ok('a1'), NOW).map((x) => x.recovered)).toEqual(['prune-blocked']);
  });

  it('policy hold: once per revision and rules, whatever the run, recovered when released', () => {
    const t = new AlertTracker();
    const heldPolicy = (runId: string, rules = ['cluster-deletes-approved']) => ({
      runId,
      revision: 'a1',
      rules,
      findings: [
        {
          key: 'Cluster/ml/gke',
          message: 'deleting a cluster needs an approval',
          at: 'c.yaml:3:1',
        },
      ],
    });
    const step = (runId: string): StepView => ({ result: 'policy-held', runId, revision: 'a1' });
    const a = t.next(status({ heldPolicy: heldPolicy('r1') }), step('r1'), NOW);
    expect(a.map((x) => [x.kind, x.severity, x.revision])).toEqual([
      ['approval-required', 'warning', 'a1'],
    ]);
    expect(a[0]?.details).toEqual([
      'approve with: platctl ctl approve r1 (or the dashboard)',
      'c.yaml:3:1: Cluster/ml/gke: deleting a cluster needs an approval',
    ]);
    expect(a[0]?.resources).toEqual(['Cluster/ml/gke']);
    // the next run holds the same revision for the same rules: nothing new to say
    expect(t.next(status({ heldPolicy: heldPolicy('r2') }), step('r2'), NOW)).toEqual([]);
    // a new leader restores the memory and re-sends nothing
    const other = new AlertTracker();
    expect(other.restore(JSON.parse(JSON.stringify(t.memory())))).toBe(true);
    expect(other.next(status({ heldPolicy: heldPolicy('r3') }), step('r3'), NOW)).toEqual([]);
    // another rule holds it: a new alert
    const more = heldPolicy('r4', ['cluster-deletes-approved', 'gpu-budget']);
    expect(t.next(status({ heldPolicy: more }), step('r4'), NOW).map((x) => x.kind)).toEqual([
      'approval-required',
    ]);
    expect(t.next(status(), ok('a1'), NOW).map((x) => x.recovered)).toEqual(['approval-required']);
    expect(t.next(status(), ok('a1'), NOW)).toEqual([]);
  });

  it('seeded from a restored status, a restart re-sends nothing already known', () => {
    const restored = status({
      lastAppliedRevision: 'a1',
      lastResult: 'invalid',
      sourceReady: false,
      fetchedRevision: 'b2',
      rejectedRevisions: ['b2'],
      rejected: [{ revision: 'b2', at: NOW, diagnostics: [] }],
    });
    const t = new AlertTracker();
    t.seed(restored);
    expect(t.next(restored, { ...ok('a1'), result: 'invalid' }, NOW)).toEqual([]);
  });
});
