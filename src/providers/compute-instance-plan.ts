import type { PowerAction, ProposedAction } from '../model/action.js';
import {
  DEPLOY_ANNOTATION,
  type ManifestOf,
  POWER_CYCLE_ANNOTATION,
  POWER_RESET_ANNOTATION,
} from '../model/manifest.js';
import type { PlanInput } from '../model/provider.js';
import { createAction, deleteAction } from './support/actions.js';
import { managedBody, threeWayDiff } from './support/diff.js';
import { comparable, desiredPower, display } from './support/scope.js';

/** The one-shot power requests: annotation → the API's action. */
const ONE_SHOTS: readonly [string, PowerAction][] = [
  [POWER_RESET_ANNOTATION, 'Power reset'],
  [POWER_CYCLE_ANNOTATION, 'Power cycle'],
];

/**
 * Pure: what a compute instance needs. Absent → create, publish (and stop when declared off);
 * spec changed → update then publish (an update only takes effect when published); created,
 * updated or failed → publish; provisioned → power start/stop when the declared power state
 * differs, else a `Power reset` / `Power cycle` for each one-shot annotation whose value differs
 * from the last applied one; pruned → delete (unless already deleting). With
 * `platctl.io/deploy: "false"` nothing is published (nor powered: it is not provisioned).
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
  /** `published`: the stop follows a publish, which powers the instance on whatever it was. */
  const power = (action: 'start' | 'stop', published = false): ProposedAction => {
    const now = published ? 'on' : live?.powerState;
    const why = published ? '; publishing powers it on' : now ? `, is ${now}` : '';
    return {
      type: 'power',
      key,
      target,
      powerAction: action,
      reason: {
        code: 'power-state',
        message: `${what} should be powered ${action === 'start' ? 'on' : 'off'}${why}`,
      },
      changes: [
        {
          op: 'replace',
          path: '/status/powerState',
          ...(now ? { before: now } : {}),
          after: action === 'start' ? 'on' : 'off',
        },
      ],
    };
  };
  const wantOff = desiredPower(desired) === 'off';
  const deploy = desired.metadata.annotations?.[DEPLOY_ANNOTATION] !== 'false';
  /** The publish (and the stop after it, when declared off) that deploys, unless held back. */
  const deployment = (message: string): ProposedAction[] =>
    deploy ? [publish(message), ...(wantOff ? [power('stop', true)] : [])] : [];
  if (!live) return [createAction(key, desired, what), ...deployment(`${what} is new`)];
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
      ...deployment(`${what} must be published to apply its new spec`),
    ];
  }
  if (live.status === 'created' || live.status === 'updated' || live.status === 'failed') {
    return deployment(`${what} is ${live.status}`);
  }
  if (live.status !== 'success' || live.powerState === undefined) return [];
  if (wantOff && live.powerState === 'on') return [power('stop')];
  if (!wantOff && live.powerState === 'off') return [power('start')];
  // a reset or cycle needs a running instance; a request to one declared off is only recorded
  return live.powerState === 'on' ? oneShots(key, target, what, desired, lastApplied) : [];
}

/**
 * A `Power reset` / `Power cycle` for each one-shot annotation whose value is new: set, and not
 * the value of the last-applied manifest (the state store's record, so a value is performed once).
 * Without a record (an adopted instance) nothing is asked: the value is only recorded. Pure.
 */
function oneShots(
  key: string,
  target: ProposedAction['target'],
  what: string,
  desired: ManifestOf<'ComputeInstance'>,
  lastApplied: ManifestOf<'ComputeInstance'> | undefined,
): ProposedAction[] {
  if (!lastApplied) return [];
  return ONE_SHOTS.flatMap(([annotation, powerAction]): ProposedAction[] => {
    const wanted = desired.metadata.annotations?.[annotation];
    const had = lastApplied.metadata.annotations?.[annotation];
    if (wanted === undefined || wanted === had) return [];
    return [
      {
        type: 'power',
        key,
        target,
        powerAction,
        reason: {
          code: 'requested',
          message: `${what}: ${annotation} is ${JSON.stringify(wanted)}${had === undefined ? '' : ` (was ${JSON.stringify(had)})`}, so ${powerAction} once`,
        },
        changes: [
          {
            op: 'replace',
            path: `/metadata/annotations/${annotation.replace('/', '~1')}`,
            ...(had === undefined ? {} : { before: had }),
            after: wanted,
          },
        ],
      },
    ];
  });
}
