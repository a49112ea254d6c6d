import { randomUUID } from 'node:crypto';
import { closeSegments } from '../billing/segments.js';
import { ApiError, type EmuContext, type EmuRequest, type EmuResponse } from '../http/types.js';
import { findProject } from '../lookups.js';
import { statusMessage } from '../shared/responses.js';
import {
  bodyObject,
  checkPaasEnvelope,
  createdAtIso,
  type Described,
  described,
  listResponse,
  nextCreatedAtUs,
  paasApiVersion,
} from './common.js';
import { addressesFor, checkComputeSpec } from './compute-checks.js';
import {
  type ComputeSpec,
  computeStatus,
  findInstance,
  type InstanceRecord,
  liveInstancesOfType,
  loadInstance,
  openBilling,
  saveInstance,
  successAtMs,
} from './compute-store.js';
import { hasDeployedVpc } from './services.js';
import { loadWorkspace } from './workspaces.js';

interface InstanceBody {
  metadata: { name: string; project?: string; workspace?: string } & Described;
  spec: ComputeSpec;
}

/** The password is never stored; reads always show this mask. */
const PASSWORD_MASK = '********';

/** The `{status, message}` body of compute writes; creates and updates also carry `name`. */
function result(status: number, word: string, message: string, name?: string): EmuResponse {
  const response = statusMessage(status, word, message);
  return name === undefined ? response : { status, body: { ...(response.body as object), name } };
}

/** The instance named by the path (project, workspace, instanceName) or a 404. */
export function instanceFromPath(req: EmuRequest, ctx: EmuContext): InstanceRecord {
  const { project, workspace, instanceName } = req.params;
  loadWorkspace(ctx, project!, workspace!);
  return loadInstance(ctx, project!, workspace!, instanceName!);
}

/**
 * POST .../computeinstances: 201 on create; on an existing name 409 with `fail-on-exists`, else
 * the new spec and metadata are stored and the status becomes `updated` (`created` stays
 * `created`), 200. 409 while provisioning or deleting. Unknown workspace 404; bad profile 400.
 */
export function upsertComputeInstance(req: EmuRequest, ctx: EmuContext): EmuResponse {
  const project = req.params.project!;
  const workspace = req.params.workspace!;
  const org = findProject(ctx, project).organizationId;
  loadWorkspace(ctx, project, workspace);
  const body = bodyObject<InstanceBody>(req);
  checkPaasEnvelope(ctx, body, 'ComputeInstance', { project, workspace });
  const { metadata, spec } = body;
  checkComputeSpec(ctx, spec);
  const existing = findInstance(ctx, project, workspace, metadata.name);
  if (!existing) {
    saveInstance(ctx, {
      id: randomUUID(),
      name: metadata.name,
      project,
      workspace,
      ...described(metadata),
      organizationId: org,
      createdAtUs: nextCreatedAtUs(ctx, 'computeinstances'),
      spec,
      phase: 'created',
      powerState: 'on',
    });
    return result(201, 'Success', `compute instance ${metadata.name} created`, metadata.name);
  }
  if (req.query['fail-on-exists'] === true) {
    throw new ApiError(409, 'already_exists', `compute instance ${metadata.name} already exists`);
  }
  const status = computeStatus(ctx, existing);
  if (status === 'provisioning' || status === 'deleting') {
    throw new ApiError(409, 'conflict', `compute instance ${metadata.name} is ${status}`);
  }
  const { displayName: _d, description: _e, ...rest } = existing;
  // Any update of a deployed instance waits for a publish, even one that changes only metadata:
  // the engine always follows an update with a publish.
  const phase = status === 'created' ? 'created' : 'updated';
  saveInstance(ctx, { ...rest, ...described(metadata), spec, phase });
  return result(200, 'Success', `compute instance ${metadata.name} updated`, metadata.name);
}

/**
 * POST .../{name}/publish: 202, `provisioning`, then `success` after `compute-provision`.
 * Allowed from created, updated and failed; needs a deployed VPC in the project (409 otherwise).
 * Opens the instance's billing segment, starting at `success`.
 */
export function publishComputeInstance(req: EmuRequest, ctx: EmuContext): EmuResponse {
  const r = instanceFromPath(req, ctx);
  const status = computeStatus(ctx, r);
  if (status !== 'created' && status !== 'updated' && status !== 'failed') {
    throw new ApiError(
      409,
      'not_allowed',
      `compute instance ${r.name} is ${status}; cannot publish`,
    );
  }
  if (!hasDeployedVpc(ctx, r.project)) {
    throw new ApiError(409, 'conflict', `project ${r.project} has no deployed VPC service`);
  }
  const { privateIp, publicIp } = addressesFor(r.id, r.spec);
  const next: InstanceRecord = {
    ...r,
    privateIp,
    publicIp,
    phase: 'provisioning',
    provisionStartedAtMs: ctx.clock.now(),
    powerState: 'on',
  };
  // the instance and its billing segment change together or not at all
  ctx.store.transaction(() => {
    saveInstance(ctx, next);
    openBilling(ctx, next, successAtMs(ctx, next));
  });
  return result(202, 'Accepted', 'deployment initiated');
}

function outputOf(r: InstanceRecord) {
  return {
    ip_address: { value: r.privateIp ?? '' },
    public_ip_address: { value: r.publicIp ?? '' },
    node_login_username: { value: 'ubuntu' },
    node_login_password: { value: PASSWORD_MASK },
  };
}

/** The full ComputeInstance body: spec, status, and power state and output while `success`. */
function instanceBody(ctx: EmuContext, r: InstanceRecord) {
  const status = computeStatus(ctx, r);
  return {
    apiVersion: paasApiVersion(ctx),
    kind: 'ComputeInstance',
    metadata: {
      name: r.name,
      project: r.project,
      workspace: r.workspace,
      ...described(r),
      id: r.id,
      createdAt: createdAtIso(r),
    },
    spec: r.spec,
    status: {
      status,
      ...(status === 'success' && { powerState: r.powerState, output: outputOf(r) }),
    },
  };
}

/** GET .../{name}[?computeType=]: the instance; an instance of another computeType is not found. */
export function getComputeInstance(req: EmuRequest, ctx: EmuContext): EmuResponse {
  const r = instanceFromPath(req, ctx);
  const wanted = req.query.computeType;
  if (wanted !== undefined && wanted !== r.spec.computeType) {
    throw new ApiError(404, 'not_found', `compute instance ${r.name} is not of type ${wanted}`);
  }
  return { status: 200, body: instanceBody(ctx, r) };
}

/** GET P/computeinstances?computeType=: ComputeInstanceList of that type, paged and ordered. */
export function listComputeInstances(req: EmuRequest, ctx: EmuContext): EmuResponse {
  const project = req.params.project!;
  findProject(ctx, project);
  const ofType = liveInstancesOfType(ctx, project, String(req.query.computeType));
  return listResponse(ctx, req, 'ComputeInstanceList', ofType, (r) => ({
    kind: 'ComputeInstance',
    metadata: { name: r.name, project: r.project, workspace: r.workspace },
    status: { status: computeStatus(ctx, r) },
  }));
}

/**
 * DELETE .../{name}: 202 and `deleting`, gone after `compute-delete`. Billing stops now. A repeated
 * delete while deleting is accepted again (safe to retry) and does not restart the countdown.
 */
export function deleteComputeInstance(req: EmuRequest, ctx: EmuContext): EmuResponse {
  const r = instanceFromPath(req, ctx);
  if (r.phase !== 'deleting') {
    const now = ctx.clock.now();
    ctx.store.transaction(() => {
      saveInstance(ctx, { ...r, phase: 'deleting', deleteRequestedAtMs: now });
      closeSegments(ctx, r.id, now);
    });
  }
  return result(202, 'Accepted', `compute instance ${r.name} is being deleted`);
}

/** The `{status, message[, name]}` result body, shared with the power actions. */
export { result as paasResult };
