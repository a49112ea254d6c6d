import type { ApiKeyRecord } from '../http/auth.js';
import { ApiError, type EmuContext, type Principal } from '../http/types.js';
import type { UserRecord } from '../seed/apply-seed.js';

/** The user `accountId` of the caller's organization; 404 otherwise (other orgs are invisible). */
export function findUser(ctx: EmuContext, principal: Principal, accountId: string): UserRecord {
  const user = ctx.store.get<UserRecord>('users', accountId);
  if (!user || user.organizationId !== principal.organizationId) {
    throw new ApiError(404, 'not_found', `user ${accountId} not found`);
  }
  return user;
}

/** The public account view of a user (what lists and create return; never a password). */
export function accountView(user: UserRecord): Record<string, unknown> {
  const { id, username, first_name, last_name, user_type, active } = user;
  return { id, username, first_name, last_name, user_type, active };
}

/** Deletes a user and everything hanging off it: memberships, assignments and API keys. */
export function purgeUser(ctx: EmuContext, accountId: string): void {
  ctx.store.transaction(() => {
    ctx.store.delete('users', accountId);
    for (const coll of ['memberships', 'assignments']) {
      for (const rec of ctx.store.list<{ accountId: string; key?: string }>(
        coll,
        `${accountId}/`,
      )) {
        ctx.store.delete(coll, keyOf(coll, rec));
      }
    }
    for (const key of ctx.store.list<ApiKeyRecord>('apikeys')) {
      if (key.accountId === accountId) ctx.store.delete('apikeys', key.hash);
    }
  });
}

function keyOf(coll: string, rec: Record<string, unknown>): string {
  return coll === 'memberships'
    ? `${rec.accountId}/${rec.groupId}`
    : `${rec.accountId}/${rec.project}/${rec.roleId}`;
}
