import { type Manifest, manifestKey, type UserManifest } from '../model/manifest.js';
import { escapeVariables } from './manifests.js';
import { type ImportScope, UNREADABLE_KINDS } from './read.js';

/**
 * What the API cannot read, as platctl last applied it (pure): the manifests of the readless
 * kinds (project assignments, blueprint versions and publishes, controller versions) in the
 * imported projects and chosen kinds, `${` escaped, and each user's groups by username. This is
 * all that is known of them: the API has no read, so objects changed outside platctl are not
 * seen.
 */
export function fromLastApplied(
  applied: ReadonlyMap<string, Manifest>,
  projects: readonly string[],
  scope: ImportScope,
): { manifests: Manifest[]; groups: Map<string, NonNullable<UserManifest['spec']['groups']>> } {
  const wanted = (kind: Manifest['kind']) => !scope.kinds || scope.kinds.includes(kind);
  const manifests: Manifest[] = [];
  const groups = new Map<string, NonNullable<UserManifest['spec']['groups']>>();
  for (const [key, m] of applied) {
    if (m.kind === 'User' && m.spec.groups?.length) groups.set(m.metadata.name, m.spec.groups);
    if (!UNREADABLE_KINDS.includes(m.kind) || !wanted(m.kind)) continue;
    if (m.metadata.project === undefined || !projects.includes(m.metadata.project)) continue;
    if (manifestKey(m) !== key) continue; // a record under another key is not this manifest's
    manifests.push(escapeVariables(structuredClone(m)) as Manifest);
  }
  return { manifests, groups };
}
