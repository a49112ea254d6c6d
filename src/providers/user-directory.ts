import { PlatctlError } from '../core/errors.js';
import type { ApiClient } from '../model/api.js';
import { listAll } from './support/list.js';

/** A user as the users list returns it (`users[].account`). */
export interface Account {
  readonly id: string;
  readonly username: string;
  readonly first_name?: string;
  readonly last_name?: string;
  readonly user_type?: string;
  readonly active?: boolean;
}

const USERS = '/auth/v1/users/';
const cache = new WeakMap<ApiClient, Promise<Map<string, Account>>>();
/** Accounts this run created (id known) or deleted (undefined), ahead of any list. */
const learned = new WeakMap<ApiClient, Map<string, string | undefined>>();

/** Reads every local user (all pages). I/O. */
export async function listAccounts(api: ApiClient): Promise<Map<string, Account>> {
  const users = await listAll<{ account?: Account }>(
    api,
    { path: USERS, route: USERS, auth: 'identity', operation: 'listing users' },
    {
      items: (b) => (b as { users?: { account?: Account }[] } | null)?.users,
      count: (b) => (b as { count?: number } | null)?.count,
      key: (u) => u.account?.id ?? JSON.stringify(u),
    },
  );
  const byName = new Map<string, Account>();
  for (const u of users) if (u.account?.username) byName.set(u.account.username, u.account);
  return byName;
}

/**
 * Username → account, read once per client (the API addresses users by accountId, but
 * manifests by username). `refresh` re-reads the list (after a create that may have landed).
 */
export function accounts(api: ApiClient, refresh = false): Promise<Map<string, Account>> {
  let found = cache.get(api);
  if (!found || refresh) {
    found = listAccounts(api);
    cache.set(api, found);
    found.catch(() => cache.delete(api));
  }
  return found;
}

/**
 * Records an account this run created (with its id) or deleted (no id: lookups go back to the
 * list), so a lookup right after a create needs no request.
 */
export function remember(api: ApiClient, username: string, id?: string): void {
  if (!learned.has(api)) learned.set(api, new Map());
  if (id) learned.get(api)?.set(username, id);
  else {
    learned.get(api)?.delete(username);
    void cache.get(api)?.then(
      (byName) => byName.delete(username),
      () => undefined,
    );
  }
}

/**
 * The accountId of a username: the known id if given, else the directory, re-read once when the
 * user is not found. Throws a clear error when the user does not exist.
 */
export async function accountId(api: ApiClient, username: string, known?: string): Promise<string> {
  const id = await findAccountId(api, username, known);
  if (!id) throw new PlatctlError('api', `user ${username} does not exist on the platform`);
  return id;
}

/** {@link accountId}, or undefined when the user does not exist (after one re-read). I/O. */
export async function findAccountId(
  api: ApiClient,
  username: string,
  known?: string,
): Promise<string | undefined> {
  if (known) return known;
  const created = learned.get(api)?.get(username);
  if (created) return created;
  return (await accounts(api)).get(username)?.id ?? (await accounts(api, true)).get(username)?.id;
}
