import type { ProposedAction } from '../model/action.js';
import { type Manifest, type ManifestOf, manifestKey } from '../model/manifest.js';

type Assignment = ManifestOf<'ProjectAssignment'>;

/**
 * The roles of a user this plan creates (pure; returns new actions, never mutates). The API has
 * no read of assignments, so an assignment is planned against what was last applied; but a user
 * the plan creates (new, or recreated after it was deleted) holds no role, whatever was last
 * applied. Each declared assignment of such a user is therefore granted in full: its noop or
 * partial assign is replaced by one assign of every declared role, and an unassign from that same
 * user (who holds nothing) is dropped. The ordering step puts the assign after the user's create.
 */
export function regrant(
  proposed: readonly ProposedAction[],
  desired: readonly Manifest[],
): ProposedAction[] {
  const created = new Set(
    proposed
      .filter((a) => a.type === 'create' && a.target.kind === 'User')
      .map((a) => a.target.name),
  );
  if (created.size === 0) return [...proposed];
  const regranted = new Map<string, Assignment>();
  for (const m of desired) {
    if (m.kind === 'ProjectAssignment' && created.has(m.spec.user) && m.spec.roles.length > 0) {
      regranted.set(manifestKey(m), m);
    }
  }
  // a first apply already grants every declared role: nothing to add
  for (const a of proposed) {
    const m = regranted.get(a.key);
    if (m && a.type === 'assign' && a.user === m.spec.user && grantsAll(a.roles, m)) {
      regranted.delete(a.key);
    }
  }
  if (regranted.size === 0) return [...proposed];
  // in the place of the key's last action, so the plan stays in key order and a reassignment
  // still takes the roles from the previous user first
  const last = new Map(proposed.map((a, i) => [a.key, i]));
  return proposed.flatMap((a, i): ProposedAction[] => {
    const m = regranted.get(a.key);
    if (!m) return [a];
    const stale = a.type === 'noop' || a.type === 'assign';
    const kept = stale || (a.type === 'unassign' && a.user === m.spec.user) ? [] : [a];
    return last.get(a.key) === i ? [...kept, grantAll(a.key, m)] : kept;
  });
}

function grantsAll(roles: readonly { id: string }[], m: Assignment): boolean {
  return m.spec.roles.every((r) => roles.some((x) => x.id === r.id));
}

function grantAll(key: string, m: Assignment): ProposedAction {
  const { user, roles } = m.spec;
  const names = roles.map((r) => r.name).join(', ');
  return {
    type: 'assign',
    key,
    target: { kind: 'ProjectAssignment', name: m.metadata.name, project: m.metadata.project },
    user,
    roles,
    reason: {
      code: 'absent',
      message: `grant role${roles.length === 1 ? '' : 's'} ${names} to ${user} in project ${m.metadata.project} (the user is created by this plan and holds no role yet)`,
    },
    changes: roles.map((r) => ({ op: 'add' as const, path: `/spec/roles/${r.name}`, after: r })),
  };
}
