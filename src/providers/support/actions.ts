import { PlatctlError } from '../../core/errors.js';
import type { Manifest } from '../../manifests/types.js';
import type { Action, ProposedAction } from '../../reconcile/types.js';
import type { LiveObject } from '../types.js';
import { comparable, creationChanges, refOf } from './scope.js';

/** The error for an action a provider never proposes (a bug in the planner or a hand-made plan). */
export function unsupported(kind: string, action: Action): PlatctlError {
  return new PlatctlError(
    'internal',
    `${kind} cannot perform a ${action.type} action (${action.key})`,
  );
}

/** A create of a declared, absent resource. Pure. */
export function createAction(key: string, desired: Manifest, what: string): ProposedAction {
  return {
    type: 'create',
    key,
    target: refOf(desired),
    desired,
    reason: { code: 'absent', message: `${what} does not exist on the platform` },
    changes: creationChanges(desired),
  };
}

/** A prune of a live resource no longer declared. Pure. */
export function deleteAction(key: string, live: LiveObject, what: string): ProposedAction {
  return {
    type: 'delete',
    key,
    target: live.ref,
    reason: { code: 'removed-from-git', message: `${what} is no longer declared in git` },
    changes: Object.entries(comparable(live.body)).map(([k, v]) => ({
      op: 'remove' as const,
      path: `/${k}`,
      before: v,
    })),
  };
}
