import { describe, expect, it } from 'vitest';
import type { ResourceReport } from '../../src/controller/engine/ports.js';
import { diffOf } from '../../src/controller/http/control-views.js';
import { BackoffTracker } from '../../src/controller/loop/backoff.js';
import type { StepPorts } from '../../src/controller/loop/ports.js';
import { record } from '../../src/controller/loop/run-record.js';
import { ControllerMetrics } from '../../src/controller/status/metrics.js';
import { initialStatus } from '../../src/controller/status/status.js';
import { systemClock } from '../../src/core/clock.js';
import { memoryLogger, runReport } from './helpers/fakes.js';

const created: ResourceReport = {
  key: 'Workspace/p/a',
  kind: 'Workspace',
  ref: { kind: 'Workspace', project: 'p', name: 'a' },
  action: 'create',
  reason: 'absent',
  message: 'workspace p/a does not exist on the platform',
  outcome: 'succeeded',
  dependsOn: ['Project/p'],
  changes: [{ op: 'add', path: '/metadata', after: { name: 'a', project: 'p' } }],
  startedAt: 1,
  elapsedMs: 2,
};
const updated: ResourceReport = {
  key: 'Workspace/p/b',
  kind: 'Workspace',
  action: 'update',
  reason: 'drift',
  message: 'drifted',
  outcome: 'failed',
  error: 'boom',
  changes: [{ op: 'replace', path: '/spec/x', before: 8, after: 1 }],
};
const bare: ResourceReport = {
  key: 'User/u',
  kind: 'User',
  action: 'delete',
  reason: 'removed-from-git',
  message: 'gone',
  outcome: 'succeeded',
};
const kept: ResourceReport = { ...created, key: 'Workspace/p/c', action: 'noop', changes: [] };

const run = runReport;

describe('what status keeps of the last run', () => {
  it("keeps each changed resource's key and field changes, not the rest of its report", async () => {
    const { logger } = memoryLogger();
    const status = initialStatus('fake', { suspended: false, dryRun: false, selfHeal: true });
    const ports = {
      clock: systemClock,
      logger,
      metrics: new ControllerMetrics(),
      backoff: new BackoffTracker({ baseMs: 20, maxMs: 200 }),
      status,
      memory: {},
    } as unknown as StepPorts;
    const report = run([created, updated, bare, kept]);
    await record(report, { applying: true, suspended: false }, 'r1', 'run-1', ports, {
      selfHeal: true,
    });
    expect(status.resources).toEqual([
      { key: created.key, changes: created.changes },
      { key: updated.key, changes: updated.changes },
      { key: bare.key },
    ]);
    // the diff served is the one the whole report gave
    expect(diffOf(status, created.key)).toEqual([
      { path: '/metadata', op: 'add', desired: { name: 'a', project: 'p' } },
    ]);
    expect(diffOf(status, updated.key)).toEqual([
      { path: '/spec/x', op: 'replace', desired: 1, live: 8 },
    ]);
    expect(diffOf(status, bare.key)).toEqual([]);
    expect(diffOf(status, kept.key)).toEqual([]);
  });
});
