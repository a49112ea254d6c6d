import { findCluster, saveCluster } from '../clusters/cluster-store.js';
import { ApiError, type EmuRequest, type Handler } from '../http/types.js';
import { findProjectById, nowIso } from '../lookups.js';
import { badField, message, statusMessage } from '../shared/responses.js';
import { getBlueprint, resolveVersion, saveBlueprint } from './blueprint-store.js';

interface ForceSyncBody {
  metadata: { forceSync: boolean };
  blueprintName: string;
  blueprintVersion: string;
  addons?: string[];
}

/**
 * POST /v2/scheduler/project/{project-id}/cluster/{cluster-name}/publish/blueprint: publishes an
 * enabled blueprint version to the cluster and force syncs the listed add-ons (all when none are
 * listed). 404 unknown cluster; 400 unknown blueprint, version or add-on, or a disabled version.
 */
export const forceSyncBlueprint: Handler = (req, ctx) => {
  const project = findProjectById(ctx, req.params['project-id']!);
  const cluster = findCluster(ctx, project.name, req.params['cluster-name']!);
  const body = req.body as ForceSyncBody;
  const bp = getBlueprint(ctx, project.name, body.blueprintName);
  if (!bp) throw badField('blueprintName', `unknown blueprint ${body.blueprintName}`);
  const resolved = resolveVersion(bp, body.blueprintVersion);
  if (resolved.kind !== 'enabled') {
    throw badField('blueprintVersion', `${resolved.kind} version ${body.blueprintVersion}`);
  }
  const requested = body.addons ?? [];
  requested.forEach((addon, i) => {
    if (!bp.addons.includes(addon)) throw badField(`addons[${i}]`, `unknown add-on ${addon}`);
  });
  const synced = !body.metadata.forceSync ? [] : requested.length > 0 ? requested : bp.addons;
  cluster.blueprint = {
    name: bp.name,
    version: resolved.version,
    forceSyncedAddons: synced,
    publishedAt: nowIso(ctx),
  };
  saveCluster(ctx, cluster);
  return statusMessage(
    202,
    'accepted',
    `blueprint ${bp.name}@${resolved.version} published to ${cluster.metadata.name}; force synced: ${synced.join(', ') || 'none'}`,
  );
};

/** Builds the enable/disable handler: 200 {message}; 404 unknown project, blueprint or version. */
function setVersionEnabled(enabled: boolean): Handler {
  return (req: EmuRequest, ctx) => {
    const project = findProjectById(ctx, req.params.project_id!);
    const name = req.params.blueprint_id!;
    const versionName = req.params.version_name!;
    const bp = getBlueprint(ctx, project.name, name);
    if (!bp)
      throw new ApiError(
        404,
        'not_found',
        `blueprint ${name} not found in project ${project.name}`,
      );
    const version = bp.versions.find((v) => v.name === versionName);
    if (!version)
      throw new ApiError(404, 'not_found', `version ${versionName} of blueprint ${name} not found`);
    version.enabled = enabled;
    saveBlueprint(ctx, bp);
    return message(`blueprint ${name} version ${versionName} ${enabled ? 'enabled' : 'disabled'}`);
  };
}

export const enableBlueprintVersion = setVersionEnabled(true);
export const disableBlueprintVersion = setVersionEnabled(false);
