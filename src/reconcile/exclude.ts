import type { Action } from '../model/action.js';
import type { PlanDiagnostic } from '../model/plan.js';

/** What is left of an ordered plan once some keys are excluded. */
export interface Excluded {
  readonly actions: Action[];
  readonly diagnostics: PlanDiagnostic[];
}

/**
 * Leaves the actions of the `exclude`d keys out of ordered `actions` (pure; inputs are not
 * mutated), together with every action that depends on one of their pending actions, directly or
 * through other held-back actions: it must not run before its dependency is done, so it waits for
 * a later run. A noop of an excluded key has nothing pending and holds nothing back. Each key that
 * loses a change gets one warning saying why; `dependsOn` of what remains names only kept actions,
 * so the executor needs to know nothing about exclusion. An empty `exclude` returns the input as is.
 * `reasons` says why a key is excluded when it is not the controller's backoff (its live state
 * could not be read).
 */
export function excludeKeys(
  actions: readonly Action[],
  exclude: ReadonlySet<string>,
  reasons: ReadonlyMap<string, string> = new Map(),
): Excluded {
  if (exclude.size === 0) return { actions: [...actions], diagnostics: [] };
  const dependents = new Map<string, Action[]>();
  for (const a of actions) {
    for (const d of a.dependsOn) dependents.set(d, [...(dependents.get(d) ?? []), a]);
  }
  // held: action id -> the excluded key it waits for (undefined for the excluded key's own)
  const held = new Map<string, string | undefined>();
  const queue: Action[] = [];
  for (const a of actions) {
    if (exclude.has(a.key) && a.type !== 'noop') {
      held.set(a.id, undefined);
      queue.push(a);
    }
  }
  // breadth first, so each dependent is blamed on the nearest excluded key
  for (let i = 0; i < queue.length; i++) {
    const a = queue[i]!;
    const root = held.get(a.id) ?? a.key;
    for (const d of dependents.get(a.id) ?? []) {
      if (held.has(d.id) || exclude.has(d.key)) continue;
      held.set(d.id, root);
      queue.push(d);
    }
  }
  const kept = actions.filter((a) => !exclude.has(a.key) && !held.has(a.id));
  const keptIds = new Set(kept.map((a) => a.id));
  return {
    actions: kept.map((a) =>
      a.dependsOn.every((d) => keptIds.has(d))
        ? a
        : ({ ...a, dependsOn: a.dependsOn.filter((d) => keptIds.has(d)) } as Action),
    ),
    diagnostics: deferrals(actions, held, reasons),
  };
}

/** One warning per key that lost a change, in plan order. */
function deferrals(
  actions: readonly Action[],
  held: ReadonlyMap<string, string | undefined>,
  reasons: ReadonlyMap<string, string>,
): PlanDiagnostic[] {
  const byKey = new Map<string, { types: string[]; root: string | undefined }>();
  for (const a of actions) {
    if (!held.has(a.id) || a.type === 'noop') continue;
    const entry = byKey.get(a.key) ?? { types: [], root: held.get(a.id) };
    if (!entry.types.includes(a.type)) entry.types.push(a.type);
    byKey.set(a.key, entry);
  }
  return [...byKey].map(([key, { types, root }]) => ({
    severity: 'warning',
    key,
    message:
      root === undefined
        ? `deferred: ${reasons.has(key) ? `its live state could not be read (${reasons.get(key)})` : 'excluded from this run (backing off after failures)'}; ${types.join(', ')} not planned`
        : `deferred: depends on ${root}, ${reasons.has(root) ? 'whose live state could not be read' : 'which is excluded from this run'}; ${types.join(', ')} not planned`,
  }));
}
