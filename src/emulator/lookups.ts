import { ApiError, type EmuContext } from './http/types.js';

/** An organization as seeded: collection `orgs`, key = id. */
export interface OrgRecord {
  readonly id: string;
  readonly name: string;
  readonly partnerId: string;
}

/** A project: collection `projects`, key = name (project names are unique across orgs). */
export interface ProjectRecord {
  readonly id: string;
  readonly name: string;
  readonly description: string;
  readonly organizationId: string;
  readonly createdAt: string;
  readonly modifiedAt: string;
}

/** A compute or service profile: collection `profiles`, key = name. */
export interface ProfileRecord {
  readonly name: string;
  readonly kind: 'baremetal' | 'k8s' | 'vm' | 'service';
  readonly billable: boolean;
  readonly region: string;
  readonly hardware: {
    readonly cpu_count: number;
    readonly cpu_arch: string;
    readonly gpu_count: number;
    readonly gpu_model: string;
    readonly memory_size_gb: number;
    readonly storage_size_gb: number;
    readonly storage_type: string;
  };
}

/** Reads `collection/key` or throws a 404 ApiError whose message names `what`. No I/O beyond the store. */
export function getOr404<T>(ctx: EmuContext, collection: string, key: string, what: string): T {
  const found = ctx.store.get<T>(collection, key);
  if (found === undefined) throw new ApiError(404, 'not_found', `${what} not found`);
  return found;
}

/** The project named `name`; 404 ApiError when unknown. */
export function findProject(ctx: EmuContext, name: string): ProjectRecord {
  return getOr404<ProjectRecord>(ctx, 'projects', name, `project ${name}`);
}

/** The project whose id is `id`; 404 ApiError when unknown. */
export function findProjectById(ctx: EmuContext, id: string): ProjectRecord {
  const found = ctx.store.list<ProjectRecord>('projects').find((p) => p.id === id);
  if (!found) throw new ApiError(404, 'not_found', `project ${id} not found`);
  return found;
}

/** The emulator clock's now, as ISO 8601 UTC with milliseconds (`2026-01-01T00:00:00.000Z`). */
export function nowIso(ctx: EmuContext): string {
  return new Date(ctx.clock.now()).toISOString();
}
