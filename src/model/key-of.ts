import { type Manifest, manifestKey } from './manifest.js';

/**
 * True when `key` is `manifestKey(m)` (pure), found without making the key: part by part along
 * the string. The pairing checks each desired manifest's key as its revision holds it this way;
 * making each key again to compare it (an array and a joined string per manifest, 100,000 of
 * them per plan) only to drop it was a tenth of the pairing's time and more to collect.
 */
export function isKeyOf(key: string, m: Manifest): boolean {
  const { name, project, workspace } = m.metadata;
  // a part that is not a string is converted by the key's join: left to it
  if (
    typeof m.kind !== 'string' ||
    typeof name !== 'string' ||
    (project !== undefined && typeof project !== 'string') ||
    (workspace !== undefined && typeof workspace !== 'string')
  ) {
    return key === manifestKey(m);
  }
  let at = partEnd(key, m.kind, 0);
  if (at >= 0 && project !== undefined) at = partEnd(key, project, at);
  if (at >= 0 && workspace !== undefined) at = partEnd(key, workspace, at);
  return at >= 0 && key.length === at + name.length && key.startsWith(name, at);
}

/** Where the part after `part` and its `/` starts in `key` when `part` starts at `at`, else -1. */
function partEnd(key: string, part: string, at: number): number {
  const end = at + part.length;
  return key.startsWith(part, at) && key.charCodeAt(end) === SLASH ? end + 1 : -1;
}

const SLASH = 0x2f;
