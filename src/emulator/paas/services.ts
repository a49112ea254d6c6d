import { randomUUID } from 'node:crypto';
import { ApiError, type EmuContext, type EmuRequest, type EmuResponse } from '../http/types.js';
import { findProject, type ProfileRecord } from '../lookups.js';
import { badField } from '../shared/responses.js';
import { transitionDone } from '../shared/transitions.js';
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

/** The VPC service states of the spec. */
type ServiceStatus = 'not_deployed' | 'deploying' | 'deployed' | 'failed';

/** A VPC service as stored: collection `services`, key `<project>/<name>`. */
export interface ServiceRecord extends Stamped, Described {
  readonly id: string;
  readonly project: string;
  readonly spec: Record<string, unknown>;
  /** The stored phase; `deploying` turns into `deployed` lazily, see {@link serviceStatus}. */
  readonly phase: Exclude<ServiceStatus, 'deployed'>;
  readonly deployStartedAtMs?: number;
}

interface ServiceBody {
  metadata: { name: string; project?: string } & Described;
  spec: Record<string, unknown>;
}

const COLLECTION = 'services';

/** Store key of a service. */
const serviceKey = (project: string, name: string): string => `${project}/${name}`;

/** The status of a service now, on the emulator clock (deploying becomes deployed after `vpc-deploy`). */
function serviceStatus(ctx: EmuContext, s: ServiceRecord): ServiceStatus {
  if (s.phase !== 'deploying') return s.phase;
  return transitionDone(ctx, s.deployStartedAtMs ?? 0, 'vpc-deploy') ? 'deployed' : 'deploying';
}

/** True when the project has at least one VPC service that is `deployed` now. */
export function hasDeployedVpc(ctx: EmuContext, project: string): boolean {
  return ctx.store
    .list<ServiceRecord>(COLLECTION, `${project}/`)
    .some((s) => serviceStatus(ctx, s) === 'deployed');
}

/** The stored service or a 404 (unknown project or service). */
export function loadService(ctx: EmuContext, project: string, name: string): ServiceRecord {
  findProject(ctx, project);
  const found = ctx.store.get<ServiceRecord>(COLLECTION, serviceKey(project, name));
  if (!found) throw notFound(`service ${name} in project ${project}`);
  return found;
}

/** Overwrites a stored service. */
export function saveService(ctx: EmuContext, s: ServiceRecord): void {
  ctx.store.put(COLLECTION, serviceKey(s.project, s.name), s);
}

function statusBody(ctx: EmuContext, s: ServiceRecord) {
  return {
    metadata: { name: s.name, project: s.project },
    status: { status: serviceStatus(ctx, s) },
  };
}

function fullBody(ctx: EmuContext, s: ServiceRecord) {
  return {
    apiVersion: paasApiVersion(ctx),
    kind: 'Service',
    metadata: {
      name: s.name,
      project: s.project,
      ...described(s),
      id: s.id,
      createdAt: createdAtIso(s),
    },
    spec: s.spec,
    status: { status: serviceStatus(ctx, s) },
  };
}

/** 400 naming `spec.serviceProfile.name` unless it names a seeded service profile (`vpc`). */
function checkServiceProfile(ctx: EmuContext, spec: Record<string, unknown>): void {
  const name = (spec.serviceProfile as { name: string }).name;
  const profile = ctx.store.get<ProfileRecord>('profiles', name);
  if (profile?.kind === 'service') return;
  const message = profile ? `is a ${profile.kind} profile, not a service profile` : 'is unknown';
  throw badField('spec.serviceProfile.name', `(${name}) ${message}`);
}

/**
 * POST .../services: 201 not_deployed; 409 when the name exists (the API has no service update),
 * unless the dialect's creates are upserts and `fail-on-exists` is not sent (then 200, replaced).
 */
export function createService(req: EmuRequest, ctx: EmuContext): EmuResponse {
  const project = req.params.projectName!;
  findProject(ctx, project);
  const body = bodyObject<ServiceBody>(req);
  checkPaasEnvelope(ctx, body, 'Service', { project });
  checkServiceProfile(ctx, body.spec);
  const name = body.metadata.name;
  const existing = ctx.store.get<ServiceRecord>(COLLECTION, serviceKey(project, name));
  if (existing && ctx.config.dialect.failOnExists && req.query['fail-on-exists'] !== true) {
    // the dialect's create is an upsert: the spec and metadata replace what was there
    const next: ServiceRecord = { ...existing, ...described(body.metadata), spec: body.spec };
    saveService(ctx, next);
    return { status: 200, body: statusBody(ctx, next) };
  }
  if (existing) {
    throw new ApiError(
      409,
      'already_exists',
      `service ${name} already exists in project ${project}`,
    );
  }
  const record: ServiceRecord = {
    id: randomUUID(),
    name,
    project,
    ...described(body.metadata),
    createdAtUs: nextCreatedAtUs(ctx, COLLECTION),
    spec: body.spec,
    phase: 'not_deployed',
  };
  saveService(ctx, record);
  return { status: 201, body: statusBody(ctx, record) };
}

/** POST .../services/{name}/publish: 202 deploying; 409 while deploying or once deployed. */
export function publishService(req: EmuRequest, ctx: EmuContext): EmuResponse {
  const s = loadService(ctx, req.params.projectName!, req.params.serviceName!);
  const status = serviceStatus(ctx, s);
  if (status === 'deploying' || status === 'deployed') {
    throw new ApiError(409, 'conflict', `service ${s.name} is already ${status}`);
  }
  const next: ServiceRecord = { ...s, phase: 'deploying', deployStartedAtMs: ctx.clock.now() };
  saveService(ctx, next);
  return { status: 202, body: statusBody(ctx, next) };
}

/** GET .../services/{name}: the Service with its current status. */
export function getService(req: EmuRequest, ctx: EmuContext): EmuResponse {
  const s = loadService(ctx, req.params.projectName!, req.params.serviceName!);
  return { status: 200, body: fullBody(ctx, s) };
}

/** GET .../services: ServiceList, paged, DESC by createdAt unless asked otherwise. */
export function listServices(req: EmuRequest, ctx: EmuContext): EmuResponse {
  const project = req.params.projectName!;
  findProject(ctx, project);
  const all = inCreationOrder<ServiceRecord>(ctx, COLLECTION, `${project}/`);
  return listResponse(ctx, req, 'ServiceList', all, (s) => fullBody(ctx, s), {
    offsetInMetadata: true,
  });
}

/** DELETE .../services/{name}: 200 null; 409 while deploying. */
export function deleteService(req: EmuRequest, ctx: EmuContext): EmuResponse {
  const s = loadService(ctx, req.params.projectName!, req.params.serviceName!);
  if (serviceStatus(ctx, s) === 'deploying') {
    throw new ApiError(409, 'conflict', `service ${s.name} is deploying`);
  }
  ctx.store.delete(COLLECTION, serviceKey(s.project, s.name));
  return { status: 200, body: null };
}
