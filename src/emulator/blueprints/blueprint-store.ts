import type { EmuContext } from '../http/types.js';
import type { BlueprintRecord } from '../seed/apply-seed.js';

export type { BlueprintRecord };

/** The alias that resolves to the newest enabled version. */
const LATEST = 'latest';

/** Blueprint `name` of `project` (collection `blueprints`, key `<project>/<name>`), or undefined. */
export function getBlueprint(
  ctx: EmuContext,
  project: string,
  name: string,
): BlueprintRecord | undefined {
  return ctx.store.get<BlueprintRecord>('blueprints', `${project}/${name}`);
}

/** Stores a blueprint record. */
export function saveBlueprint(ctx: EmuContext, bp: BlueprintRecord): void {
  ctx.store.put('blueprints', `${bp.project}/${bp.name}`, bp);
}

/**
 * What a requested version means: `unknown`, `disabled`, or the concrete enabled version
 * (`latest` is the last enabled version in the blueprint's list other than `latest` itself).
 */
export function resolveVersion(
  bp: BlueprintRecord,
  version: string,
): { kind: 'unknown' } | { kind: 'disabled' } | { kind: 'enabled'; version: string } {
  const entry = bp.versions.find((v) => v.name === version);
  if (version === LATEST) {
    if (entry && !entry.enabled) return { kind: 'disabled' };
    const newest = bp.versions.filter((v) => v.enabled && v.name !== LATEST).at(-1);
    if (newest) return { kind: 'enabled', version: newest.name };
    return entry ? { kind: 'disabled' } : { kind: 'unknown' };
  }
  if (!entry) return { kind: 'unknown' };
  return entry.enabled ? { kind: 'enabled', version: entry.name } : { kind: 'disabled' };
}
