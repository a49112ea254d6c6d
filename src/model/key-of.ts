import type { ResourceRef } from './action.js';
import { identityKey, type Manifest, manifestKey } from './manifest.js';

// A key checked against its parts without making it: the pairing takes a revision's key for its
// manifest this way, observe an inventory row's stored key for its ref, and a read of the platform
// a declared manifest's key for the live object of its name.

/**
 * True when `key` is `manifestKey(m)` (pure), found without making the key: part by part along
 * the string. The pairing (`reconcile/pair.ts`) checks each desired manifest's key as its
 * revision holds it this way; making each key again to compare it (an array and a joined string
 * per manifest, 100,000 of them per plan) only to drop it was a tenth of the pairing's time and
 * more to collect.
 */
export function isKeyOf(key: string, m: Manifest): boolean {
  const { name, project, workspace } = m.metadata;
  return matches(key, m.kind, name, project, workspace) ?? key === manifestKey(m);
}

/**
 * True when `key` is `identityKey(ref)` (pure), found as {@link isKeyOf} finds a manifest's: the
 * observation takes an inventory entry's key for its ref this way instead of making the key again.
 */
export function isRefKey(key: string, ref: ResourceRef): boolean {
  return matches(key, ref.kind, ref.name, ref.project, ref.workspace) ?? key === identityKey(ref);
}

/** Whether `key` joins these parts, undefined when a part is not a string (the join's to say). */
function matches(
  key: string,
  kind: unknown,
  name: unknown,
  project: unknown,
  workspace: unknown,
): boolean | undefined {
  // a part that is not a string is converted by the key's join: left to it
  if (
    typeof kind !== 'string' ||
    typeof name !== 'string' ||
    (project !== undefined && typeof project !== 'string') ||
    (workspace !== undefined && typeof workspace !== 'string')
  ) {
    return undefined;
  }
  let at = partEnd(key, kind, 0);
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
