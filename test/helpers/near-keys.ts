/**
 * Keys near `key` that a key check must tell apart from it: `key` itself, `other`, `key` with
 * `extra` on either side, one character short at either end, a separator doubled or dropped.
 */
export function nearKeys(key: string, other: string, extra: string): string[] {
  return [
    key,
    other,
    `${key}${extra}`,
    `${extra}${key}`,
    key.slice(0, -1),
    key.slice(1),
    key.replace('/', '//'),
    key.replace('/', ''),
  ];
}
