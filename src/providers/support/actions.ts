import { PlatctlError } from '../../core/errors.js';
import type { Action, ProposedAction } from '../../model/action.js';
import type { Manifest } from '../../model/manifest.js';
import type { LiveObject } from '../../model/provider.js';
import { type Doc, threeWayDiff } from './diff.js';
import { identicalJson } from './identical.js';
import { comparable, creationChanges, display, fieldPath, refOf } from './scope.js';

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
      path: fieldPath(k),
      before: v,
    })),
  };
}

/**
 * The plan of a kind the API creates and updates with one call (clusters, workspaces): delete when
 * undeclared, create when absent, one update when the three-way diff of the managed bodies (as
 * `managed` extracts them) finds a difference, nothing otherwise. Pure.
 */
export function planUpsert<M extends Manifest>(
  input: { key: string; desired?: M; live?: LiveObject; lastApplied?: M },
  noun: string,
  managed: (m: M) => Doc,
): ProposedAction[] {
  const { key, desired, live, lastApplied } = input;
  if (!desired) return live ? [deleteAction(key, live, `${noun} ${display(live.ref)}`)] : [];
  if (!live) return [createAction(key, desired, `${noun} ${display(desired.metadata)}`)];
  const diff = threeWayDiff(
    comparable(managed(desired)),
    comparable(live.body),
    lastApplied && comparable(managed(lastApplied)),
  );
  if (!diff) return [];
  return [
    {
      type: 'update',
      key,
      target: live.ref,
      desired,
      reason: { code: diff.code, message: diff.message },
      changes: diff.changes,
    },
  ];
}

/**
 * {@link planUpsert}'s answer when it is known without the three-way diff or a last-applied
 * manifest (pure): true when the managed bodies of desired and live are identical, and the diff
 * then finds nothing whatever was last applied. False: ask {@link planUpsert}.
 */
export function upsertInSync<M extends Manifest>(
  input: { desired: M; live: LiveObject },
  managed: (m: M) => Doc,
): boolean {
  return identicalJson(comparable(managed(input.desired)), comparable(input.live.body));
}
