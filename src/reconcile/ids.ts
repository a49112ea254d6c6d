import type { Action, ProposedAction } from '../model/action.js';

type ActionType = ProposedAction['type'];

/**
 * Gives each proposed action its id `<key>#<type>[#<n>]` (pure): stable across runs for the same
 * input, `#2`, `#3`... only when a key has several actions of one type.
 */
export function assignIds(proposed: readonly ProposedAction[]): Action[] {
  // counted by key, whose hash its string already holds from the pairing's maps (a new
  // `<key>#<type>` string per action, hashed to count it, was most of this at 100,000): the
  // first action's type, then a count per type once the key has another
  const seen = new Map<string, ActionType | Map<ActionType, number>>();
  return proposed.map((p) => {
    const before = seen.get(p.key);
    let n = 1;
    if (before === undefined) {
      seen.set(p.key, p.type);
    } else {
      const counts = typeof before === 'string' ? new Map([[before, 1]]) : before;
      n = (counts.get(p.type) ?? 0) + 1;
      counts.set(p.type, n);
      if (counts !== before) seen.set(p.key, counts);
    }
    const base = `${p.key}#${p.type}`;
    const action = copyOf(p);
    action.id = n === 1 ? base : `${base}#${n}`;
    action.dependsOn = NO_DEPENDENCIES;
    return action as unknown as Action;
  });
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
