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

/**
 * Whether any user (of any organization) already has `username`, compared case-insensitively.
 * Reads the `usernames` index (lower-cased username -> id), not the users: one or two reads,
 * whatever their number. An index entry whose user is gone or renamed counts for nothing; a store
 * written before the index existed is indexed once (the `meta` flag, which a reset clears too).
 */
export function usernameTaken(ctx: EmuContext, username: string): boolean {
  const lower = username.toLowerCase();
  if (!ctx.store.get('meta', USERNAMES_INDEXED)) {
    for (const u of ctx.store.list<UserRecord>('users')) indexUsername(ctx, u);
    ctx.store.put('meta', USERNAMES_INDEXED, { indexed: true });
  }
  const entry = ctx.store.get<{ readonly id: string }>('usernames', lower);
  const user = entry && ctx.store.get<UserRecord>('users', entry.id);
  return user !== undefined && user.username.toLowerCase() === lower;
}

/** Records `user` in the `usernames` index read by {@link usernameTaken}. */
export function indexUsername(ctx: EmuContext, user: UserRecord): void {
  ctx.store.put('usernames', user.username.toLowerCase(), { id: user.id });
}

const USERNAMES_INDEXED = 'usernames-indexed';
