import { randomUUID } from 'node:crypto';
import type { Handler } from '../http/types.js';
import { nowIso } from '../lookups.js';
import type { UserRecord } from '../seed/apply-seed.js';
import { listQuery, sortAndPage } from '../shared/paging.js';
import { badField } from '../shared/responses.js';
import { accountView, findUser, indexUsername, purgeUser, usernameTaken } from './users-store.js';

interface CreateUserBody {
  account: Pick<UserRecord, 'username' | 'first_name' | 'last_name' | 'user_type'> & {
    password: string;
  };
}

/** GET /auth/v1/users/: users of the caller's organization, filtered by `q`, sorted and paged. */
export const listUsers: Handler = (req, ctx) => {
  const query = listQuery(req, 'orderBy', 'username');
  const needle = typeof req.query.q === 'string' ? req.query.q.toLowerCase() : '';
  const users = ctx.store
    .list<UserRecord>('users')
    .filter((u) => u.organizationId === req.principal.organizationId)
    .filter((u) =>
      [u.username, u.first_name, u.last_name].some((s) => s.toLowerCase().includes(needle)),
    );
  const page = sortAndPage(
    users,
    query,
    (u, f) => String(u[f as keyof UserRecord] ?? ''),
    (u) => u.username,
  );
  return {
    status: 200,
    body: {
      users: page.items.map((u) => ({ account: accountView(u) })),
      count: page.count,
      offset: query.offset,
      limit: query.limit,
    },
  };
};

/** POST /auth/v1/users/: a local user in the caller's org (no key, no password stored). */
export const createUser: Handler = (req, ctx) => {
  const { account } = req.body as CreateUserBody;
  if (usernameTaken(ctx, account.username))
    throw badField('account.username', 'already exists', 'already_exists');
  const user: UserRecord = {
    id: randomUUID(),
    username: account.username,
    first_name: account.first_name,
    last_name: account.last_name,
    user_type: account.user_type,
    active: true,
    organizationId: req.principal.organizationId,
    createdAt: nowIso(ctx),
  };
  ctx.store.transaction(() => {
    ctx.store.put('users', user.id, user);
    indexUsername(ctx, user);
  });
  const { active: _active, ...created } = accountView(user);
  return { status: 201, body: { account: created, sso_account: null, is_sso: false } };
};

/**
 * DELETE /auth/v1/users/{accountId}/: 204; 404 when not a user of the caller's org; 400 for the
 * caller itself (an organization must not lose the admin deleting it mid-request).
 */
export const deleteUser: Handler = (req, ctx) => {
  const user = findUser(ctx, req.principal, req.params.accountId!);
  if (user.id === req.principal.accountId)
    throw badField('accountId', 'cannot delete the calling user');
  purgeUser(ctx, user.id);
  return { status: 204 };
};
