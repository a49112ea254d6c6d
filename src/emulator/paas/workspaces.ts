import { randomUUID } from 'node:crypto';
import { ApiError, type EmuContext, type EmuRequest, type EmuResponse } from '../http/types.js';
import { findProject } from '../lookups.js';
import {
  bodyObject,
  checkPaasEnvelope,
  createdAtIso,
  type Described,
  described,
  inCreationOrder,
  listResponse,
  nextCreatedAtUs,
  notFound,
  paasApiVersion,
  type Stamped,
} from './common.js';
import { liveInstancesIn } from './compute-store.js';

/** A workspace as stored: collection `workspaces`, key `<project>/<name>`. */
export interface WorkspaceRecord extends Stamped, Described {
  readonly id: string;
  readonly project: string;
}

interface WorkspaceBody {
  metadata: { name: string; project?: string; displayName?: string; description?: string };
}

const COLLECTION = 'workspaces';

const workspaceKey = (project: string, name: string) => `${project}/${name}`;

/** The stored workspace or a 404 (unknown project or workspace). */
export function loadWorkspace(ctx: EmuContext, project: string, name: string): WorkspaceRecord {
  findProject(ctx, project);
  const found = ctx.store.get<WorkspaceRecord>(COLLECTION, workspaceKey(project, name));
  if (!found) throw notFound(`workspace ${name} in project ${project}`);
  return found;
}

function fullBody(ctx: EmuContext, w: WorkspaceRecord) {
  const metadata = {
    name: w.name,
    project: w.project,
    ...described(w),
    id: w.id,
    createdAt: createdAtIso(w),
  };
  return { apiVersion: paasApiVersion(ctx), kind: 'Workspace', metadata };
}

/** GET .../workspaces: WorkspaceList {metadata {count, limit}, items}; defaults limit 50, DESC. */
export function listWorkspaces(req: EmuRequest, ctx: EmuContext): EmuResponse {
  const project = req.params.projectName!;
  findProject(ctx, project);
  const all = inCreationOrder<WorkspaceRecord>(ctx, COLLECTION, `${project}/`);
  return listResponse(ctx, req, 'WorkspaceList', all, (w) => fullBody(ctx, w));
}

/**
 * POST .../workspaces: creates, or updates displayName/description of an existing workspace
 * (id and createdAt are kept). 409 when `fail-on-exists` is true and it exists. 200 either way.
 */
export function upsertWorkspace(req: EmuRequest, ctx: EmuContext): EmuResponse {
  const project = req.params.projectName!;
  findProject(ctx, project);
  const body = bodyObject<WorkspaceBody>(req);
  checkPaasEnvelope(ctx, body, 'Workspace', { project });
  const { metadata } = body;
  const key = workspaceKey(project, metadata.name);
  const existing = ctx.store.get<WorkspaceRecord>(COLLECTION, key);
  if (existing && req.query['fail-on-exists'] === true) {
    throw new ApiError(409, 'already_exists', `workspace ${metadata.name} already exists`);
  }
  const record: WorkspaceRecord = {
    id: existing?.id ?? randomUUID(),
    name: metadata.name,
    project,
    createdAtUs: existing?.createdAtUs ?? nextCreatedAtUs(ctx, COLLECTION),
    ...described(metadata),
  };
  ctx.store.put(COLLECTION, key, record);
  return {
    status: 200,
    body: {
      apiVersion: paasApiVersion(ctx),
      kind: 'Workspace',
      metadata: { name: record.name, project, createdAt: createdAtIso(record) },
    },
  };
}

/** GET .../workspaces/{name}: the Workspace; 404 when unknown. */
export function getWorkspace(req: EmuRequest, ctx: EmuContext): EmuResponse {
  const w = loadWorkspace(ctx, req.params.projectName!, req.params.workspaceName!);
  return { status: 200, body: fullBody(ctx, w) };
}

/** DELETE .../workspaces/{name}: 200 null; 409 while it holds compute instances (even deleting). */
export function deleteWorkspace(req: EmuRequest, ctx: EmuContext): EmuResponse {
  const w = loadWorkspace(ctx, req.params.projectName!, req.params.workspaceName!);
  const held = liveInstancesIn(ctx, w.project, w.name).length;
  if (held > 0) {
    throw new ApiError(
      409,
      'conflict',
      `workspace ${w.name} still holds ${held} compute instance(s)`,
    );
  }
  ctx.store.delete(COLLECTION, workspaceKey(w.project, w.name));
  return { status: 200, body: null };
}
