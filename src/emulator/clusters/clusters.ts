import { randomUUID } from 'node:crypto';
import { ApiError, type Handler } from '../http/types.js';
import { listQuery, sortAndPage } from '../shared/paging.js';
import { badField, statusMessage } from '../shared/responses.js';
import { type ClusterBody, checkClusterBody } from './cluster-checks.js';
import {
  type ClusterRecord,
  clusterStatus,
  clusterView,
  findCluster,
  getCluster,
  liveClusters,
  saveCluster,
} from './cluster-store.js';

/** GET .../clusters: the project's live clusters, newest first by default, paged. */
export const listClusters: Handler = (req, ctx) => {
  const query = listQuery(req);
  const page = sortAndPage(
    liveClusters(ctx, req.params.project!),
    query,
    (c) => c.createdAtMs,
    (c) => c.metadata.name,
  );
  return {
    status: 200,
    body: {
      apiVersion: `${ctx.config.infraGroup}/v3`,
      kind: 'ClusterList',
      metadata: { count: page.count, limit: query.limit, offset: query.offset },
      items: page.items.map((c) => clusterView(ctx, c)),
    },
  };
};

/** POST .../clusters: creates (201, `provisioning`) or updates the spec of (200) a cluster. */
export const createCluster: Handler = (req, ctx) => {
  const project = req.params.project!;
  const body = req.body as ClusterBody;
  checkClusterBody(ctx, project, body);
  const existing = getCluster(ctx, project, body.metadata.name);
  if (existing && clusterStatus(ctx, existing) === 'deleting') {
    throw new ApiError(409, 'conflict', `cluster ${body.metadata.name} is being deleted`);
  }
  const now = ctx.clock.now();
  const record: ClusterRecord = existing
    ? {
        ...existing,
        spec: body.spec,
        metadata: { ...withoutDescribed(existing.metadata), ...descriptionOf(body) },
      }
    : {
        metadata: {
          name: body.metadata.name,
          project,
          ...descriptionOf(body),
          id: randomUUID(),
          createdAt: new Date(now).toISOString(),
        },
        spec: body.spec,
        createdAtMs: now,
        controllers: {},
      };
  saveCluster(ctx, record);
  // an apply (the vendor's) answers 200 whether it created or updated
  const created = ctx.config.dialect.clusterCreate === 'apply' ? 200 : 201;
  return { status: existing ? 200 : created, body: clusterView(ctx, record) };
};

/** GET .../clusters/{name}: the cluster with its status; 404 when unknown or deleted. */
export const getClusterDetail: Handler = (req, ctx) => ({
  status: 200,
  body: clusterView(ctx, findCluster(ctx, req.params.project!, req.params.name!)),
});

/** DELETE .../clusters/{name}: 202 (or the dialect's 200 with no body), `deleting`, gone after `cluster-delete`. */
export const deleteCluster: Handler = (req, ctx) => {
  const cluster = findCluster(ctx, req.params.project!, req.params.name!);
  cluster.deleteRequestedAtMs ??= ctx.clock.now();
  saveCluster(ctx, cluster);
  if (ctx.config.dialect.clusterDeleteStatus === 200) return { status: 200 };
  return statusMessage(202, 'Accepted', `cluster ${cluster.metadata.name} deletion initiated`);
};

/** POST .../updatecontrollerdeployment: exactly one version; the cluster must exist and be ready. */
export const updateControllerDeployment: Handler = (req, ctx) => {
  const body = req.body as { capiVersion?: string; capgVersion?: string };
  const sent = (['capiVersion', 'capgVersion'] as const).filter((k) => body[k] !== undefined);
  if (sent.length !== 1) {
    const text = sent.length
      ? 'must not be sent with capiVersion'
      : 'exactly one of capiVersion or capgVersion is required';
    throw badField(sent.length ? 'capgVersion' : 'capiVersion', text);
  }
  const field = sent[0]!;
  const cluster = findCluster(ctx, req.params.project!, req.params.cluster!);
  const status = clusterStatus(ctx, cluster);
  if (status !== 'ready')
    throw new ApiError(409, 'conflict', `cluster ${cluster.metadata.name} is ${status}, not ready`);
  cluster.controllers = { ...cluster.controllers, [field]: body[field] };
  saveCluster(ctx, cluster);
  const which = field === 'capiVersion' ? 'CAPI' : 'CAPG';
  return { status: 202, body: `${which} controller deployment update to ${body[field]} accepted` };
};

function descriptionOf(body: ClusterBody): {
  description?: string;
  labels?: Record<string, string>;
} {
  const { description, labels } = body.metadata;
  return {
    ...(description !== undefined && { description }),
    ...(labels !== undefined && { labels }),
  };
}

/** Metadata without what an update replaces (description and labels go when not sent again). */
function withoutDescribed(m: ClusterRecord['metadata']): ClusterRecord['metadata'] {
  const { description: _d, labels: _l, ...rest } = m;
  return rest;
}
