import { createHash, createHmac, timingSafeEqual } from 'node:crypto';

/** Header names are lower-cased, as node:http delivers them. */
export type WebhookHeaders = Readonly<Record<string, string | string[] | undefined>>;

/** Which git host's convention a request was verified with, or why it was refused. */
export type WebhookVerdict =
  | { readonly ok: true; readonly scheme: 'github' | 'gitea' | 'gitlab' }
  | { readonly ok: false; readonly reason: 'missing-signature' | 'bad-signature' };

function header(headers: WebhookHeaders, name: string): string | undefined {
  const v = headers[name];
  return Array.isArray(v) ? v[0] : v;
}

/**
 * Compares two strings in time independent of where they differ. Both sides are hashed first so
 * that unequal lengths neither throw nor leak the expected length.
 */
export function constantTimeEqual(a: string, b: string): boolean {
  const ha = createHash('sha256').update(a).digest();
  const hb = createHash('sha256').update(b).digest();
  return timingSafeEqual(ha, hb) && a.length === b.length;
}

/** The hex HMAC-SHA256 of `body` under `secret`. Pure. */
function hmacSha256Hex(secret: string, body: Buffer | string): string {
  return createHmac('sha256', secret).update(body).digest('hex');
}

/**
 * Verifies a push webhook against the shared secret. Pure apart from hashing.
 *
 * - GitHub (and Gitea/Forgejo's GitHub-compatible header): `X-Hub-Signature-256: sha256=<hex>`
 * - Gitea/Forgejo: `X-Gitea-Signature: <hex>` (HMAC-SHA256 of the body)
 * - GitLab: `X-Gitlab-Token: <secret>` (the secret itself, no HMAC)
 *
 * Every comparison is constant-time. The first header present decides; a request carrying none is
 * `missing-signature`.
 */
export function verifyWebhook(
  headers: WebhookHeaders,
  body: Buffer,
  secret: string,
): WebhookVerdict {
  const github = header(headers, 'x-hub-signature-256');
  if (github !== undefined) {
    const expected = `sha256=${hmacSha256Hex(secret, body)}`;
    return constantTimeEqual(github.trim().toLowerCase(), expected)
      ? { ok: true, scheme: 'github' }
      : { ok: false, reason: 'bad-signature' };
  }
  const gitea = header(headers, 'x-gitea-signature');
  if (gitea !== undefined) {
    return constantTimeEqual(gitea.trim().toLowerCase(), hmacSha256Hex(secret, body))
      ? { ok: true, scheme: 'gitea' }
      : { ok: false, reason: 'bad-signature' };
  }
  const gitlab = header(headers, 'x-gitlab-token');
  if (gitlab !== undefined) {
    return constantTimeEqual(gitlab, secret)
      ? { ok: true, scheme: 'gitlab' }
      : { ok: false, reason: 'bad-signature' };
  }
  return { ok: false, reason: 'missing-signature' };
}
