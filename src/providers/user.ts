import type { Action, ProposedAction, ResourceRef } from '../model/action.js';
import {
  type GroupRef,
  identityKey,
  type ManifestOf,
  PLATCTL_API_VERSION,
} from '../model/manifest.js';
import type { PlanDiagnostic } from '../model/plan.js';
import type { LiveObject, PlanInput, Provider, ProviderPorts } from '../model/provider.js';
import { createAction, deleteAction, unsupported } from './support/actions.js';
import { type Doc, threeWayDiff } from './support/diff.js';
import { seg } from './support/list.js';
import { createOwnership, sendDelete } from './support/requests.js';
import { type Account, accountId, accounts, lookupAccount, remember } from './user-directory.js';

type UserManifest = ManifestOf<'User'>;

/** A user's readable, managed form (no password, no groups: the API reads neither). Pure. */
function normalizeAccount(account: Account): Doc {
  return {
    apiVersion: PLATCTL_API_VERSION,
    kind: 'User',
    metadata: { name: account.username },
    spec: {
      first_name: account.first_name,
      last_name: account.last_name,
      user_type: account.user_type,
    },
  };
}

/** The comparable part of a user manifest. Pure. */
function comparableUser(m: UserManifest): Doc {
  const { first_name, last_name, user_type } = m.spec;
  return { metadata: { name: m.metadata.name }, spec: { first_name, last_name, user_type } };
}

const groupsOf = (m?: UserManifest): GroupRef[] => m?.spec.groups ?? [];
const minus = (a: GroupRef[], b: GroupRef[]) => a.filter((g) => !b.some((x) => x.id === g.id));

/**
 * Local users. Read from the users list (by username); created with a password resolved at
 * execution time; groups added and removed against what was last applied (the API has no read of
 * them); deleted by accountId. The API has no update of a user: name or type changes are
 * diagnostics.
 */
export const userProvider: Provider<'User'> = {
  kind: 'User',

  async observe(scope, ports) {
    const wanted = new Set([
      ...scope.desired.map((d) => d.manifest.metadata.name),
      ...scope.inventory.map((r) => r.name),
    ]);
    if (wanted.size === 0 && !scope.all) return [];
    const all = await accounts(ports.api, true);
    if (scope.all) for (const username of all.keys()) wanted.add(username);
    return [...wanted].flatMap((username): LiveObject[] => {
      const account = all.get(username);
      if (!account) return [];
      const ref: ResourceRef = { kind: 'User', name: username, id: account.id };
      return [{ key: identityKey(ref), ref, body: normalizeAccount(account) }];
    });
  },

  plan({ key, desired, live, lastApplied }): ProposedAction[] {
    if (!desired) return live ? [deleteAction(key, live, `user ${live.ref.name}`)] : [];
    const target: ResourceRef = live?.ref ?? { kind: 'User', name: desired.metadata.name };
    // What the platform may hold: nothing for a new user, what was last applied otherwise.
    const held = live && lastApplied ? groupsOf(lastApplied) : [];
    const add = minus(groupsOf(desired), held);
    const remove = live ? minus(held, groupsOf(desired)) : [];
    const groupChange = (
      type: 'add-groups' | 'remove-groups',
      groups: GroupRef[],
    ): ProposedAction => ({
      type,
      key,
      target,
      groups,
      reason: {
        code: live && lastApplied ? 'changed' : 'absent',
        message: `${type === 'add-groups' ? 'add to' : 'remove from'} ${groups.map((g) => g.name).join(', ')}`,
      },
      changes: groups.map((g) => ({
        op: type === 'add-groups' ? ('add' as const) : ('remove' as const),
        path: `/spec/groups/${g.name}`,
        ...(type === 'add-groups' ? { after: g } : { before: g }),
      })),
    });
    return [
      ...(live ? [] : [createAction(key, desired, `user ${desired.metadata.name}`)]),
      ...(add.length ? [groupChange('add-groups', add)] : []),
      ...(remove.length ? [groupChange('remove-groups', remove)] : []),
    ];
  },

  diagnose({ key, desired, live, lastApplied }: PlanInput<'User'>): PlanDiagnostic[] {
    if (!desired || !live) return [];
    const diff = threeWayDiff(
      comparableUser(desired),
      { metadata: (live.body as Doc).metadata, spec: (live.body as Doc).spec },
      lastApplied && comparableUser(lastApplied),
    );
    if (!diff) return [];
    return [
      {
        severity: 'error',
        key,
        message: `user ${desired.metadata.name}: ${diff.message}, but the API cannot update a user; delete and re-create it to change its name or type`,
      },
    ];
  },

  async execute(action: Action, ports: ProviderPorts) {
    const { api } = ports;
    const username = action.target.name;
    switch (action.type) {
      case 'create': {
        const m = action.desired as UserManifest;
        const password = await ports.resolveSecret(m.spec.passwordFrom);
        const res = await api.request<{ account?: Account }>({
          method: 'POST',
          path: '/auth/v1/users/',
          route: '/auth/v1/users/',
          auth: 'identity',
          operation: `creating user ${username}`,
          body: {
            account: {
              username,
              first_name: m.spec.first_name,
              last_name: m.spec.last_name,
              password,
              user_type: m.spec.user_type,
            },
          },
          secrets: [password],
          existsCheck: async () => (await lookupAccount(api, username)) !== undefined,
          signal: ports.signal,
        });
        const id = res.body?.account?.id ?? (await accountId(api, username));
        remember(api, username, id);
        return { id, ...createOwnership(res) };
      }
      case 'add-groups':
      case 'remove-groups': {
        const id = await accountId(api, username, action.target.id);
        const verb = action.type === 'add-groups' ? 'addtogroups' : 'removefromgroups';
        await api.request({
          method: 'POST',
          path: `/auth/v1/users/${seg(id)}/${verb}/`,
          route: `/auth/v1/users/{id}/${verb}/`,
          auth: 'identity',
          operation: `${action.type === 'add-groups' ? 'adding' : 'removing'} user ${username} ${action.type === 'add-groups' ? 'to' : 'from'} groups ${action.groups.map((g) => g.name).join(', ')}`,
          body: action.groups.map((g) => ({ id: g.id, name: g.name, type: g.type ?? 'SYSTEM' })),
          idempotent: true, // adding a member or removing a non-member is 200
          signal: ports.signal,
        });
        return { id };
      }
      case 'delete': {
        const known = action.target.id ?? (await accounts(api)).get(username)?.id;
        if (!known) return {};
        await sendDelete(ports, {
          path: `/auth/v1/users/${seg(known)}/`,
          route: '/auth/v1/users/{id}/',
          auth: 'identity',
          what: `user ${username}`,
        });
        remember(api, username);
        return {};
      }
      default:
        throw unsupported('User', action);
    }
  },
};
