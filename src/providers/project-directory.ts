import type { ApiClient } from '../model/api.js';
import { UnknownProjectError } from '../model/api-errors.js';
import { listAll } from './support/list.js';

export interface Project {
  readonly id: string;
  readonly name: string;
}

/** Every project the key can see (all pages), as the projects list returns them. I/O. */
export function listProjects(api: ApiClient): Promise<Project[]> {
  return listAll<Project>(
    api,
    {
      path: '/auth/v1/projects/',
      route: '/auth/v1/projects/',
      auth: 'identity',
      operation: 'listing projects',
    },
    {
      items: (b) => (b as { items?: Project[] } | null)?.items,
      count: (b) => (b as { count?: number } | null)?.count,
      key: (p) => p.id,
      // the spec gives this list limit, order and orderby, but no offset
      offset: false,
    },
  );
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
