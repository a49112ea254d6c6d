import type { Action, ProposedAction, ResourceRef } from '../model/action.js';
import type { ManifestOf, RoleRef } from '../model/manifest.js';
import type { Provider, ProviderPorts } from '../model/provider.js';
import { unsupported } from './support/actions.js';
import { seg } from './support/list.js';
import { accountId, findAccountId } from './user-directory.js';

type AssignmentManifest = ManifestOf<'ProjectAssignment'>;

const minus = (a: readonly RoleRef[], b: readonly RoleRef[]) =>
  a.filter((r) => !b.some((x) => x.id === r.id));

function roleChange(
  type: 'assign' | 'unassign',
  key: string,
  target: ResourceRef,
  user: string,
  roles: readonly RoleRef[],
  code: 'absent' | 'changed' | 'removed-from-git',
): ProposedAction {
  const names = roles.map((r) => r.name).join(', ');
  return {
    type,
    key,
    target,
    user,
    roles,
    reason: {
      code,
      message: `${type === 'assign' ? 'grant' : 'remove'} role${roles.length === 1 ? '' : 's'} ${names} ${type === 'assign' ? 'to' : 'from'} ${user} in project ${target.project}`,
    },
    changes: roles.map((r) => ({
      op: type === 'assign' ? ('add' as const) : ('remove' as const),
      path: `/spec/roles/${r.name}`,
      ...(type === 'assign' ? { after: r } : { before: r }),
    })),
  };
}

/**
 * A user's roles in a project. The API has no read of assignments: the plan compares git with
 * what platctl last applied. Assign and unassign are idempotent on the platform, so re-sending
 * is harmless; taking roles back from a user who no longer exists is done, not a failure.
 */
export const projectAssignmentProvider: Provider<'ProjectAssignment'> = {
  kind: 'ProjectAssignment',

  async observe() {
    return [];
  },

  plan({ key, desired, lastApplied }): ProposedAction[] {
    const ref = (m: AssignmentManifest): ResourceRef => ({
      kind: 'ProjectAssignment',
      name: m.metadata.name,
      project: m.metadata.project,
    });
    if (!desired) {
      if (!lastApplied?.spec.roles.length) return [];
      const user = lastApplied.spec.user;
      return [
        roleChange(
          'unassign',
          key,
          ref(lastApplied),
          user,
          lastApplied.spec.roles,
          'removed-from-git',
        ),
      ];
    }
    const user = desired.spec.user;
    const sameUser = lastApplied?.spec.user === user;
    const held = sameUser ? lastApplied.spec.roles : [];
    const add = minus(desired.spec.roles, held);
    const actions: ProposedAction[] = [];
    // A reassignment to another user takes the roles from the previous one first.
    if (lastApplied && !sameUser && lastApplied.spec.roles.length) {
      actions.push(
        roleChange(
          'unassign',
          key,
          ref(lastApplied),
          lastApplied.spec.user,
          lastApplied.spec.roles,
          'changed',
        ),
      );
    }
    const remove = minus(held, desired.spec.roles);
    if (remove.length)
      actions.push(roleChange('unassign', key, ref(desired), user, remove, 'changed'));
    if (add.length)
      actions.push(
        roleChange('assign', key, ref(desired), user, add, lastApplied ? 'changed' : 'absent'),
      );
    return actions;
  },

  async execute(action: Action, ports: ProviderPorts) {
    if (action.type !== 'assign' && action.type !== 'unassign') {
      throw unsupported('ProjectAssignment', action);
    }
    const { api } = ports;
    const projectName = action.target.project ?? '';
    const assign = action.type === 'assign';
    const [id, projectId] = await Promise.all([
      assign ? accountId(api, action.user) : findAccountId(api, action.user),
      ports.projectId(projectName),
    ]);
    // a user already gone holds no role: taking its roles back is done
    if (id === undefined) return {};
    const project = { id: projectId, name: projectName };
    const verb = assign ? 'assigntoproject' : 'unassignfromproject';
    await api.request({
      method: 'POST',
      path: `/auth/v1/users/${seg(id)}/${verb}/`,
      route: `/auth/v1/users/{id}/${verb}/`,
      auth: 'identity',
      operation: `${assign ? 'assigning' : 'unassigning'} ${action.user} ${assign ? 'to' : 'from'} project ${projectName} (${action.roles.map((r) => r.name).join(', ')})`,
      body: assign
        ? {
            roles: action.roles.map((r) => ({
              id: r.id,
              name: r.name,
              scope: r.scope ?? 'PROJECT',
              ...(r.role_type ? { role_type: r.role_type } : {}),
            })),
            project,
          }
        : {
            project,
            roles: action.roles.map((r) => ({ role: { id: r.id, scope: r.scope ?? 'PROJECT' } })),
          },
      idempotent: true, // assigning a held role or unassigning a missing one is 200
      // an unassign answered 404 (the user deleted since it was read) is done as well
      ...(assign ? {} : { accept: [404] }),
      signal: ports.signal,
    });
    return {};
  },
};
