import type { AssignmentRecord } from '../http/permissions.js';
import type { EmuContext, EmuRequest, Handler } from '../http/types.js';
import type { ProjectRecord } from '../lookups.js';
import { badField, message } from '../shared/responses.js';
import { findUser } from './users-store.js';

interface GroupRef {
  id: string;
  name: string;
  type: string;
}
interface RoleRef {
  id: string;
  name?: string;
  scope: string;
}
interface ProjectRef {
  id: string;
  name: string;
}

/** Reads `collection/id` and checks `name` (when given) agrees; otherwise 400 naming `field`. */
function known<T extends { name: string }>(
  ctx: EmuContext,
  collection: string,
  ref: { id: string; name?: string },
  field: string,
): T {
  const found = ctx.store.get<T>(collection, ref.id);
  if (!found) throw badField(`${field}.id`, `unknown id ${ref.id}`);
  if (ref.name !== undefined && found.name !== ref.name) {
    throw badField(`${field}.name`, `does not match ${ref.id} (${found.name})`);
  }
  return found;
}

/** The project named in an assignment body; id and name must match a project of the caller's org. */
function assignedProject(ctx: EmuContext, req: EmuRequest, ref: ProjectRef): ProjectRecord {
  const project = ctx.store.get<ProjectRecord>('projects', ref.name);
  if (!project || project.organizationId !== req.principal.organizationId) {
    throw badField('project.name', `unknown project ${ref.name}`);
  }
  if (project.id !== ref.id) throw badField('project.id', `does not match project ${ref.name}`);
  return project;
}

/** Builds the add/remove-groups handler: `add` puts memberships, otherwise deletes them. */
function groupsHandler(add: boolean): Handler {
  return (req, ctx) => {
    const user = findUser(ctx, req.principal, req.params.accountId!);
    const refs = req.body as GroupRef[];
    refs.forEach((ref, i) => {
      known(ctx, 'groups', ref, `[${i}]`);
    });
    ctx.store.transaction(() => {
      for (const ref of refs) {
        const key = `${user.id}/${ref.id}`;
        if (add) ctx.store.put('memberships', key, { accountId: user.id, groupId: ref.id });
        else ctx.store.delete('memberships', key);
      }
    });
    const names = refs.map((r) => r.name).join(', ');
    return message(`user ${user.username} ${add ? 'added to' : 'removed from'} ${names}`);
  };
}

export const addUserToGroups = groupsHandler(true);
export const removeUserFromGroups = groupsHandler(false);

/** POST .../assigntoproject/: gives the user each role on the project (idempotent). */
export const assignUserToProject: Handler = (req, ctx) => {
  const user = findUser(ctx, req.principal, req.params.accountId!);
  const body = req.body as { roles: RoleRef[]; project: ProjectRef };
  const project = assignedProject(ctx, req, body.project);
  const roles = body.roles.map((r, i) =>
    known<{ id: string; name: string }>(ctx, 'roles', r, `roles[${i}]`),
  );
  ctx.store.transaction(() => {
    for (const role of roles) {
      const record: AssignmentRecord = {
        accountId: user.id,
        project: project.name,
        roleId: role.id,
        roleName: role.name,
      };
      ctx.store.put('assignments', `${user.id}/${project.name}/${role.id}`, record);
    }
  });
  return message(`user ${user.username} assigned to project ${project.name}`);
};

/** POST .../unassignfromproject/: removes each wrapped role from the user on the project. */
export const unassignUserFromProject: Handler = (req, ctx) => {
  const user = findUser(ctx, req.principal, req.params.accountId!);
  const body = req.body as { roles: { role: RoleRef }[]; project: ProjectRef };
  const project = assignedProject(ctx, req, body.project);
  const roles = body.roles.map((r, i) =>
    known<{ id: string; name: string }>(ctx, 'roles', r.role, `roles[${i}].role`),
  );
  ctx.store.transaction(() => {
    for (const role of roles)
      ctx.store.delete('assignments', `${user.id}/${project.name}/${role.id}`);
  });
  return message(`user ${user.username} unassigned from project ${project.name}`);
};
