import type { ProposedAction } from '../reconcile/types.js';
import { createAction, deleteAction } from './support/actions.js';
import { managedBody, threeWayDiff } from './support/diff.js';
import { comparable, desiredPower, display } from './support/scope.js';
import type { PlanInput } from './types.js';

/**
 * Pure: what a compute instance needs. Absent → create, publish (and stop when declared off);
 * spec changed → update then publish (an update only takes effect when published); created,
 * updated or failed → publish; provisioned → power start/stop when the declared power state
 * differs; pruned → delete (unless already deleting).
 */
export function planInstance({
  key,
  desired,
  live,
  lastApplied,
}: PlanInput<'ComputeInstance'>): ProposedAction[] {
  if (!desired) {
    return live && live.status !== 'deleting'
      ? [deleteAction(key, live, `compute instance ${display(live.ref)}`)]
      : [];
  }
  const what = `compute instance ${display(desired.metadata)}`;
  const target = live?.ref ?? {
    kind: 'ComputeInstance' as const,
    name: desired.metadata.name,
    project: desired.metadata.project,
    workspace: desired.metadata.workspace,
    computeType: desired.spec.computeType,
  };
  const publish = (message: string): ProposedAction => ({
    type: 'publish',
    key,
    target,
    desired,
    reason: { code: 'not-deployed', message },
    changes: [],
  });
  const power = (action: 'start' | 'stop'): ProposedAction => ({
    type: 'power',
    key,
    target,
    powerAction: action,
    reason: {
      code: 'power-state',
      message: `${what} should be powered ${action === 'start' ? 'on' : 'off'}${live?.powerState ? `, is ${live.powerState}` : ''}`,
    },
    changes: [
      {
        op: 'replace',
        path: '/status/powerState',
        ...(live?.powerState ? { before: live.powerState } : {}),
        after: action === 'start' ? 'on' : 'off',
      },
    ],
  });
  const wantOff = desiredPower(desired) === 'off';
  if (!live) {
    return [
      createAction(key, desired, what),
      publish(`${what} is new`),
      ...(wantOff ? [power('stop')] : []),
    ];
  }
  const diff = threeWayDiff(
    comparable(managedBody(desired)),
    comparable(live.body),
    lastApplied && comparable(managedBody(lastApplied)),
  );
  if (diff) {
    return [
      {
        type: 'update',
        key,
        target,
        desired,
        reason: { code: diff.code, message: diff.message },
        changes: diff.changes,
      },
      publish(`${what} must be published to apply its new spec`),
      ...(wantOff ? [power('stop')] : []),
    ];
  }
  if (live.status === 'created' || live.status === 'updated' || live.status === 'failed') {
    return [publish(`${what} is ${live.status}`), ...(wantOff ? [power('stop')] : [])];
  }
  if (live.status !== 'success' || live.powerState === undefined) return [];
  if (wantOff && live.powerState === 'on') return [power('stop')];
  if (!wantOff && live.powerState === 'off') return [power('start')];
  return [];
}
