import { PlatctlError } from '../core/errors.js';
import { KINDS, type Kind, type Manifest } from '../model/manifest.js';
import type { LiveObject, ProviderPorts, ProviderRegistry } from '../model/provider.js';
import { listProjects } from '../providers/project-directory.js';

/** Kinds the API can list and read, in the order import reads and writes them. */
export const IMPORTABLE_KINDS: readonly Kind[] = [
  'User',
  'Service',
  'Workspace',
  'ComputeInstance',
  'Cluster',
];

/**
 * Kinds the API has no read of (docs/api-assumptions.md): a user's groups and project roles, a
 * blueprint version's state, the last publish, a cluster's controller versions. Import can only
 * write them from what platctl itself last applied (see {@link readPlatform}'s `lastApplied`).
 */
export const UNREADABLE_KINDS: readonly Kind[] = KINDS.filter((k) => !IMPORTABLE_KINDS.includes(k));

/** What to import; undefined means everything the key can see. */
export interface ImportScope {
  readonly projects?: readonly string[];
  readonly kinds?: readonly Kind[];
}

/** What the platform holds, ready to become manifests. */
export interface PlatformRead {
  /** The projects read, sorted. */
  readonly projects: readonly string[];
  /** Live objects of the importable kinds, in {@link IMPORTABLE_KINDS} order. */
  readonly live: readonly LiveObject[];
  /** Objects left out, with why (being deleted). */
  readonly skipped: readonly { key: string; reason: string }[];
}

/** Checks `--kind` values: known kinds only. Pure; throws a usage error. */
export function checkKinds(kinds: readonly string[]): Kind[] {
  for (const k of kinds) {
    if (!(KINDS as readonly string[]).includes(k)) {
      throw new PlatctlError('usage', `--kind ${k} is not a kind (kinds: ${KINDS.join(', ')})`);
    }
  }
  return kinds as Kind[];
}

/**
 * Reads every object of the chosen kinds in the chosen projects (I/O through `ports.api`, so
 * every request shares the client's rate limiter; lists are paged). Users are organization-wide:
 * read whenever the kinds include `User`, whatever `projects` says. An unknown project is a usage
 * error naming the visible ones. `onKind` is called with each kind's objects as soon as they are
 * read, while other kinds may still be reading.
 */
export async function readPlatform(
  scope: ImportScope,
  providers: ProviderRegistry,
  ports: ProviderPorts,
  onKind?: (live: readonly LiveObject[]) => void,
): Promise<PlatformRead> {
  const visible = (await listProjects(ports.api)).map((p) => p.name).sort();
  const unknown = (scope.projects ?? []).filter((p) => !visible.includes(p));
  if (unknown.length > 0) {
    throw new PlatctlError(
      'usage',
      `project ${unknown.join(', ')} is unknown or not visible to this API key (visible: ${visible.join(', ') || 'none'})`,
    );
  }
  const projects = scope.projects ? [...new Set(scope.projects)].sort() : visible;
  const kinds = IMPORTABLE_KINDS.filter((k) => !scope.kinds || scope.kinds.includes(k));
  const skipped: { key: string; reason: string }[] = [];
  const perKind = await Promise.all(
    kinds.map(async (kind) => {
      const provider = providers[kind] as ProviderRegistry[Manifest['kind']];
      const all = await provider.observe(
        { desired: [], inventory: [], projects, all: true },
        ports,
      );
      const live = all.filter((l) => {
        if (l.status !== 'deleting') return true;
        skipped.push({ key: l.key, reason: 'being deleted' });
        return false;
      });
      onKind?.(live);
      return live;
    }),
  );
  return { projects, live: perKind.flat(), skipped };
}
