import type { Action, ProposedAction } from '../model/action.js';

type ActionType = ProposedAction['type'];

/**
 * Gives each proposed action its id `<key>#<type>[#<n>]` (pure): stable across runs for the same
 * input, `#2`, `#3`... only when a key has several actions of one type.
 */
export function assignIds(proposed: readonly ProposedAction[]): Action[] {
  return identify(proposed).actions;
}

/** Actions with their ids, and each key's actions: what {@link identify} gives. */
export interface Identified {
  readonly actions: Action[];
  /**
   * Key → its actions in the order of {@link actions}: the ordering groups them so too, and takes
   * this one instead of a map of 100,000 keys of its own (`orderSteps`).
   */
  readonly byKey: ReadonlyMap<string, readonly Action[]>;
}

/**
 * {@link assignIds}, with the actions grouped by key (pure). A key's actions are numbered in its
 * group, so one map serves the ids and the ordering: at 100,000 keys each map of them was 100,000
 * insertions and as many lookups, and the ids' map was made only to count.
 */
export function identify(proposed: readonly ProposedAction[]): Identified {
  const byKey = new Map<string, Action[]>();
  const actions = proposed.map((p) => {
    const action = copyOf(p) as unknown as Action;
    const group = byKey.get(p.key);
    if (group) group.push(action);
    else byKey.set(p.key, [action]);
    return action;
  });
  for (const group of byKey.values()) {
    if (group.length === 1) {
      named(group[0]!, 1);
      continue;
    }
    const counts = new Map<ActionType, number>();
    for (const a of group) {
      const n = (counts.get(a.type) ?? 0) + 1;
      counts.set(a.type, n);
      named(a, n);
    }
  }
  return { actions, byKey };
}

/** Sets the id and the empty `dependsOn`, in that order (as `{ ...p, id, dependsOn }` would). */
function named(a: Action, n: number): void {
  const action = a as unknown as Record<string, unknown>;
  const base = `${a.key}#${a.type}`;
  action.id = n === 1 ? base : `${base}#${n}`;
  action.dependsOn = NO_DEPENDENCIES;
}

/**
 * The list every action starts with, shared and frozen: the ordering gives a waiting action a list
 * of its own, and one waiting on nothing (most of an idle plan) keeps this one (an empty list per
 * action was 100,000 arrays at 100,000). As JSON, the same `[]`.
 */
const NO_DEPENDENCIES: readonly string[] = Object.freeze([]);

/**
 * A shallow copy of an action, its properties in the same order: what `{ ...a }` gives for a plain
 * object without a property named `__proto__` (an action has none), at a fraction of the cost
 * (100,000 spreads followed by two new properties took a quarter of a second in V8; the copy
 * below, a twentieth). Fields set on the copy afterwards that `a` has keep their place, as in
 * `{ ...a, id }`.
 */
export function copyOf(a: object): Record<string, unknown> {
  return Object.assign({}, a) as Record<string, unknown>;
}
