import { sha256Hex } from '../../core/hash.js';
import type { OpenApiDocument, OperationEntry } from '../openapi/load-document.js';
import { ApiError, type EmuContext, type Principal } from './types.js';

/** An API key record: collection `apikeys`, key = SHA-256 hex of the key (the key is never stored). */
export interface ApiKeyRecord {
  readonly hash: string;
  readonly accountId: string;
}

/** SHA-256 hex of an API key. Pure. */
export function hashKey(key: string): string {
  return sha256Hex(key);
}

/**
 * The hashes of the last few keys presented: a client sends the same key with every request, and
 * hashing it each time was a tenth of the emulator's CPU per create (profile of 3,000 creates).
 * Bounded; a key is looked up in the store every time, so a revoked key is refused at once.
 */
const recentHashes = new Map<string, string>();
const RECENT_HASHES = 16;

function hashOfPresented(key: string): string {
  let hash = recentHashes.get(key);
  if (hash === undefined) {
    hash = hashKey(key);
    if (recentHashes.size >= RECENT_HASHES) recentHashes.clear();
    recentHashes.set(key, hash);
  }
  return hash;
}

/** The lower-cased header names an operation accepts its key in, from its `security` list. */
export function acceptedHeaders(doc: OpenApiDocument, entry: OperationEntry): string[] {
  const schemes = (doc.components.securitySchemes ?? {}) as Record<string, { name?: string }>;
  const security = (entry.op.security ?? doc.security ?? []) as Record<string, unknown>[];
  return security.flatMap((req) =>
    Object.keys(req)
      .map((s) => schemes[s]?.name?.toLowerCase())
      .filter((n): n is string => typeof n === 'string'),
  );
}

/**
 * Resolves the caller from the first accepted header present. A header the operation does not
 * accept counts as missing. Throws 401 for a missing or unknown key. Never logs the key.
 */
export function authenticate(
  ctx: EmuContext,
  accepted: readonly string[],
  headers: Readonly<Record<string, string | string[] | undefined>>,
): { principal: Principal; header: string } {
  const header = accepted.find((h) => typeof headers[h] === 'string' && headers[h] !== '');
  if (!header) throw new ApiError(401, 'unauthorized', 'missing API key');
  const record = ctx.store.get<ApiKeyRecord>('apikeys', hashOfPresented(headers[header] as string));
  const principal = record && principalOf(ctx, record.accountId);
  if (!principal) throw new ApiError(401, 'unauthorized', 'invalid API key');
  return { principal, header };
}

interface UserLike {
  id: string;
  username: string;
  organizationId: string;
}

/** The principal for an account, or undefined when the account no longer exists. */
function principalOf(ctx: EmuContext, accountId: string): Principal | undefined {
  const user = ctx.store.get<UserLike>('users', accountId);
  if (!user) return undefined;
  const orgAdmin = ctx.store.get('memberships', `${accountId}/grp-org-admins`) !== undefined;
  return {
    accountId: user.id,
    username: user.username,
    organizationId: user.organizationId,
    orgAdmin,
  };
}
