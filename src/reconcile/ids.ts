import type { Action, ProposedAction } from '../model/action.js';

/**
 * Gives each proposed action its id `<key>#<type>[#<n>]` (pure): stable across runs for the same
 * input, `#2`, `#3`... only when a key has several actions of one type.
 */
export function assignIds(proposed: readonly ProposedAction[]): Action[] {
  const seen = new Map<string, number>();
  return proposed.map((p) => {
    const base = `${p.key}#${p.type}`;
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    return { ...p, id: n === 1 ? base : `${base}#${n}`, dependsOn: [] } as Action;
  });
}
