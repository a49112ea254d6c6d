/**
 * Removes credentials from a repository address so it can be logged or shown in status:
 * `https://user:token@host/org/repo.git` → `https://host/org/repo.git`, and any `token=...`-style
 * query parameter masked. scp-like SSH addresses (`git@host:org/repo.git`) keep their user, which
 * is not a secret. Local paths are returned unchanged. Pure; never throws.
 */
export function stripUserinfo(address: string): string {
  const scheme = /^([a-z][a-z0-9+.-]*:\/\/)([^/?#]*)(.*)$/i.exec(address);
  if (!scheme) return address;
  const [, prefix, authority = '', rest = ''] = scheme;
  const at = authority.lastIndexOf('@');
  const host = at >= 0 ? authority.slice(at + 1) : authority;
  const cleanRest = rest.replace(
    /([?&](?:access_token|private_token|token|password|key)=)[^&#]*/gi,
    '$1***',
  );
  return `${prefix}${host}${cleanRest}`;
}

/**
 * True when the address carries credentials: any userinfo in an http(s) URL (a token may stand
 * alone as the user), or `user:password` in any other scheme. Pure.
 */
export function hasEmbeddedSecret(address: string): boolean {
  const m = /^([a-z][a-z0-9+.-]*):\/\/([^/?#@]*)@/i.exec(address);
  if (!m) return false;
  const scheme = (m[1] ?? '').toLowerCase();
  return scheme === 'http' || scheme === 'https' || (m[2] ?? '').includes(':');
}
