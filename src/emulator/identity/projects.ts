import { mayAccess } from '../http/permissions.js';
import type { Handler } from '../http/types.js';
import type { ProjectRecord } from '../lookups.js';
import { listQuery, sortAndPage } from '../shared/paging.js';

/** The public view of a project (the spec's Project fields). */
function projectView(p: ProjectRecord): Record<string, string> {
  const { id, name, description, createdAt, modifiedAt } = p;
  return { id, name, description, createdAt, modifiedAt };
}

/** GET /auth/v1/projects/: the caller's projects (all of its org for an org admin), paged. */
export const listProjects: Handler = (req, ctx) => {
  const visible = ctx.store
    .list<ProjectRecord>('projects')
    .filter((p) => mayAccess(ctx, req.principal, p, 'read'));
  const page = sortAndPage(
    visible,
    listQuery(req, 'orderby', 'name'),
    (p, f) => (f === 'createdAt' ? p.createdAt : p.name),
    (p) => p.name,
  );
  return { status: 200, body: { count: page.count, items: page.items.map(projectView) } };
};
