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

/** Reads the local users (all pages) that `query` selects. I/O. */
async function readUsers(api: ApiClient, query: Record<string, string> = {}): Promise<Account[]> {
  const users = await listAll<{ account?: Account }>(
    api,
    { path: USERS, route: USERS, auth: 'identity', operation: 'listing users', query },
    {
      items: (b) => (b as { users?: { account?: Account }[] } | null)?.users,
      count: (b) => (b as { count?: number } | null)?.count,
      key: (u) => u.account?.id ?? JSON.stringify(u),
    },
  );
  return users.flatMap((u) => (u.account ? [u.account] : []));
}

/** Reads every local user (all pages). I/O. */
export async function listAccounts(api: ApiClient): Promise<Map<string, Account>> {
  const byName = new Map<string, Account>();
  for (const a of await readUsers(api)) if (a.username) byName.set(a.username, a);
  return byName;
}

/**
 * The account of one username, read through the list's `q` search, so it costs one short page
 * however many users there are and does not page through a list that creates elsewhere in the run
 * are changing (a create's existence check). A platform that ignores `q` answers the whole list,
 * which is read and searched the same way. The account found is remembered. I/O.
 */
export async function lookupAccount(
  api: ApiClient,
  username: string,
): Promise<Account | undefined> {
  const found = (await readUsers(api, { q: username })).find((a) => a.username === username);
  if (found) remember(api, username, found.id);
  return found;
}

/**
 * Username → account, read once per client (the API addresses users by accountId, but
 * manifests by username). `refresh` re-reads the list (an observe reads it fresh).
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
