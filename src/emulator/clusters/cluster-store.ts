import { ApiError, type EmuContext } from '../http/types.js';
import { transitionDone } from '../shared/transitions.js';

/** A stored cluster: collection `clusters`, key `<project>/<name>`. Status is derived on read. */
export interface ClusterRecord {
  readonly metadata: {
    name: string;
    project: string;
    description?: string;
    labels?: Record<string, string>;
    id: string;
    createdAt: string;
  };
  spec: Record<string, unknown>;
  readonly createdAtMs: number;
  /** Set when deletion was requested. */
  deleteRequestedAtMs?: number;
  controllers: { capiVersion?: string; capgVersion?: string };
  blueprint?: { name: string; version: string; forceSyncedAddons: string[]; publishedAt: string };
}

export type ClusterStatus = 'provisioning' | 'ready' | 'deleting';

/** Key of a cluster in its collection. */
function clusterKey(project: string, name: string): string {
  return `${project}/${name}`;
}

/**
 * The cluster's status on the emulator clock, or `gone` once its deletion has finished.
 * Pure apart from reading the clock.
 */
export function clusterStatus(ctx: EmuContext, c: ClusterRecord): ClusterStatus | 'gone' {
  if (c.deleteRequestedAtMs !== undefined) {
    return transitionDone(ctx, c.deleteRequestedAtMs, 'cluster-delete') ? 'gone' : 'deleting';
  }
  return transitionDone(ctx, c.createdAtMs, 'cluster-provision') ? 'ready' : 'provisioning';
}

/** The live clusters of a project (finished deletions are purged as they are noticed). */
export function liveClusters(ctx: EmuContext, project: string): ClusterRecord[] {
  return ctx.store
    .list<ClusterRecord>('clusters', `${project}/`)
    .filter((c) => !purgeIfGone(ctx, c));
}

/** The live cluster `name` of `project`, or undefined. */
export function getCluster(
  ctx: EmuContext,
  project: string,
  name: string,
): ClusterRecord | undefined {
  const c = ctx.store.get<ClusterRecord>('clusters', clusterKey(project, name));
  return c && !purgeIfGone(ctx, c) ? c : undefined;
}

/** The live cluster `name` of `project`; 404 ApiError otherwise. */
export function findCluster(ctx: EmuContext, project: string, name: string): ClusterRecord {
  const c = getCluster(ctx, project, name);
  if (!c) throw new ApiError(404, 'not_found', `cluster ${name} not found in project ${project}`);
  return c;
}

/** Stores a cluster record. */
export function saveCluster(ctx: EmuContext, c: ClusterRecord): void {
  ctx.store.put('clusters', clusterKey(c.metadata.project, c.metadata.name), c);
}

/**
 * The API view: envelope, metadata, spec and the derived status. Controller versions and the last
 * published blueprint are kept but not shown: the API has no read of them
 * (docs/api-assumptions.md), so nothing may come to rely on one.
 */
export function clusterView(ctx: EmuContext, c: ClusterRecord): Record<string, unknown> {
  return {
    apiVersion: `${ctx.config.infraGroup}/v3`,
    kind: 'Cluster',
    metadata: c.metadata,
    spec: c.spec,
    status:
      ctx.config.dialect.clusterStatus === 'commonStatus'
        ? commonStatus(clusterStatus(ctx, c), c.metadata.createdAt)
        : { status: clusterStatus(ctx, c) },
  };
}

const CONDITION: Record<ClusterStatus | 'gone', [type: string, status: string]> = {
  provisioning: ['ClusterProvisioning', 'InProgress'],
  ready: ['ClusterReady', 'Success'],
  deleting: ['ClusterDeleting', 'InProgress'],
  gone: ['ClusterDeleted', 'Success'],
};

/** The vendor's status shape: `commonStatus` and `conditions`, no `status.status`. Pure. */
function commonStatus(status: ClusterStatus | 'gone', since: string) {
  const [conditionType, conditionStatus] = CONDITION[status];
  return {
    commonStatus: { conditionType, conditionStatus, lastUpdated: since },
    conditions: [{ type: conditionType, status: conditionStatus, lastUpdated: since }],
  };
}

function purgeIfGone(ctx: EmuContext, c: ClusterRecord): boolean {
  if (clusterStatus(ctx, c) !== 'gone') return false;
  ctx.store.delete('clusters', clusterKey(c.metadata.project, c.metadata.name));
  return true;
}
