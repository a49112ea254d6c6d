import { findProject, findProjectById, type ProjectRecord } from '../lookups.js';
import { ApiError, type EmuContext, type Principal } from './types.js';

/** The `x-emulator-permission` extension of an operation. */
export interface PermissionRule {
  readonly scope: 'project' | 'org';
  readonly access: 'read' | 'write';
  /** The path parameter holding the project (project scope only). */
  readonly param?: string;
  /** Whether that parameter is the project's name (default) or its id. */
  readonly by?: 'name' | 'id';
}

/** A role assignment: collection `assignments`, key `<accountId>/<projectName>/<roleId>`. */
export interface AssignmentRecord {
  readonly accountId: string;
  readonly project: string;
  readonly roleId: string;
  readonly roleName: string;
}

const WRITE_ROLES = new Set(['PROJECT_ADMIN', 'INFRA_ADMIN']);
const READ_ROLES = new Set([...WRITE_ROLES, 'PROJECT_READ_ONLY']);

/**
 * Enforces a rule before the handler runs: org scope needs an org admin; project scope needs the
 * caller's organization to own the project and, unless org admin, a role allowing the access.
 * An unknown project is 404. Reads the store only.
 */
export function checkPermission(
  ctx: EmuContext,
  rule: PermissionRule | undefined,
  principal: Principal,
  params: Readonly<Record<string, string>>,
): void {
  if (!rule) return;
  if (rule.scope === 'org') {
    if (!principal.orgAdmin) throw forbidden('organization admin role required');
    return;
  }
  const value = params[rule.param ?? 'project'] ?? '';
  const project = rule.by === 'id' ? findProjectById(ctx, value) : findProject(ctx, value);
  if (!mayAccess(ctx, principal, project, rule.access)) {
    throw forbidden(`no ${rule.access} permission on project ${project.name}`);
  }
}

/** Whether `principal` may read or write in `project`. */
export function mayAccess(
  ctx: EmuContext,
  principal: Principal,
  project: ProjectRecord,
  access: 'read' | 'write',
): boolean {
  if (project.organizationId !== principal.organizationId) return false;
  if (principal.orgAdmin) return true;
  const allowed = access === 'write' ? WRITE_ROLES : READ_ROLES;
  return ctx.store
    .list<AssignmentRecord>('assignments', `${principal.accountId}/${project.name}/`)
    .some((a) => allowed.has(a.roleName));
}

function forbidden(message: string): ApiError {
  return new ApiError(403, 'forbidden', message);
}
