import { clusterView, findCluster } from './clusters/cluster-store.js';
import {
  ApiError,
  type EmuContext,
  type EmuRequest,
  type EmuResponse,
  type HandlerMap,
} from './http/types.js';
import { findProject, getOr404, type ProfileRecord } from './lookups.js';
import { listResponse } from './paas/common.js';
import { computeStatus, liveInstancesIn } from './paas/compute-store.js';
import { loadWorkspace } from './paas/workspaces.js';

/**
 * The reads a dialect adds to the spec's API (api/dialects/*.yaml): instances listed per
 * workspace, compute and service profiles, a cluster's status subresource. Registered only where
 * the dialect's document has the operation (`handlersFor`).
 */

/** GET …/workspaces/{ws}/computeinstances[?computeType=]: the workspace's instances, paged. */
function listWorkspaceComputeInstances(req: EmuRequest, ctx: EmuContext): EmuResponse {
  const { project, workspace } = req.params;
  loadWorkspace(ctx, project!, workspace!);
  const type = req.query.computeType;
  const all = liveInstancesIn(ctx, project!, workspace!)
    .filter((r) => type === undefined || r.spec.computeType === type)
    .sort((a, b) => a.createdAtUs - b.createdAtUs);
  return listResponse(ctx, req, 'ComputeInstanceList', all, (r) => ({
    kind: 'ComputeInstance',
    metadata: { name: r.name, project: r.project, workspace: r.workspace },
    spec: r.spec,
    status: { status: computeStatus(ctx, r) },
  }));
}

const profileView = (p: ProfileRecord) => ({
  metadata: { name: p.name },
  spec: { type: p.kind, billable: p.billable, region: p.region, hardware: p.hardware },
});

function profilesOf(ctx: EmuContext, service: boolean): ProfileRecord[] {
  return ctx.store
    .list<ProfileRecord>('profiles', '')
    .filter((p) => (p.kind === 'service') === service);
}

function listProfiles(service: boolean) {
  return (req: EmuRequest, ctx: EmuContext): EmuResponse => {
    findProject(ctx, req.params.project!);
    return { status: 200, body: { items: profilesOf(ctx, service).map(profileView) } };
  };
}

/** GET …/computeprofiles/{name}: one compute profile; 404 for a service profile or none. */
function getComputeProfile(req: EmuRequest, ctx: EmuContext): EmuResponse {
  findProject(ctx, req.params.project!);
  const name = req.params.name!;
  const p = getOr404<ProfileRecord>(ctx, 'profiles', name, `compute profile ${name}`);
  if (p.kind === 'service')
    throw new ApiError(404, 'not_found', `compute profile ${name} not found`);
  return { status: 200, body: profileView(p) };
}

/** GET …/clusters/{name}/status: the status part of the cluster's view. */
function getClusterStatus(req: EmuRequest, ctx: EmuContext): EmuResponse {
  const view = clusterView(ctx, findCluster(ctx, req.params.project!, req.params.name!));
  return { status: 200, body: { status: view.status } };
}

export const dialectHandlers: HandlerMap = {
  listWorkspaceComputeInstances,
  listComputeProfiles: listProfiles(false),
  listServiceProfiles: listProfiles(true),
  getComputeProfile,
  getClusterStatus,
};
