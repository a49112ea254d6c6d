import type { ApiClient } from '../model/api.js';
import { UnknownProjectError } from '../model/api-errors.js';
import { IncompleteListError, listAll, MAX_PAGE_SIZE } from './support/list.js';

export interface Project {
  readonly id: string;
  readonly name: string;
}

const PROJECTS = {
  path: '/auth/v1/projects/',
  route: '/auth/v1/projects/',
  auth: 'identity',
  operation: 'listing projects',
} as const;

const projectPaging = {
  items: (b: unknown) => (b as { items?: Project[] } | null)?.items,
  count: (b: unknown) => (b as { count?: number } | null)?.count,
  key: (p: Project) => p.id,
  // the spec gives this list limit, order and orderby, but no offset
  offset: false,
} as const;

/**
 * Every project the key can see, as the projects list returns them (I/O). The list has no offset,
 * and a page stops at 1,000: a longer list is read from both ends, by name ascending and
 * descending (both documented parameters), which reaches 2,000 projects; a list longer than both
 * ends together is an {@link IncompleteListError}, never a short list.
 */
export async function listProjects(api: ApiClient): Promise<Project[]> {
  try {
    return await listAll<Project>(api, PROJECTS, projectPaging);
  } catch (err) {
    if (!(err instanceof IncompleteListError)) throw err;
    const end = (order: 'ASC' | 'DESC') =>
      listAll<Project>(
        api,
        { ...PROJECTS, query: { order, orderby: 'name', limit: MAX_PAGE_SIZE } },
        { ...projectPaging, count: () => undefined },
      );
    const [first, last] = [await end('ASC'), await end('DESC')];
    const byId = new Map([...first, ...last].map((p) => [p.id, p]));
    if (byId.size < err.total) {
      throw new IncompleteListError(
        PROJECTS.operation,
        byId.size,
        err.total,
        `the endpoint has no offset and its pages stop at ${MAX_PAGE_SIZE}: read from both ends`,
      );
    }
    return [...byId.values()];
  }
}

/**
 * `ProviderPorts.projectId` for a run: the projects list is read once, on first use, and every
 * lookup after that is from memory. An unknown name is an {@link UnknownProjectError} listing what
 * the key can see.
 */
export function createProjectDirectory(api: ApiClient): (projectName: string) => Promise<string> {
  let projects: Promise<Map<string, string>> | undefined;
  const load = async () => new Map((await listProjects(api)).map((p) => [p.name, p.id]));
  return async (projectName) => {
    projects ??= load();
    projects.catch(() => {
      projects = undefined;
    });
    const byName = await projects;
    const id = byName.get(projectName);
    if (id !== undefined) return id;
    throw new UnknownProjectError(projectName, [...byName.keys()]);
  };
}
