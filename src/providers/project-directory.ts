import { PlatctlError } from '../core/errors.js';
import { listAll } from './support/list.js';
import type { ApiClient } from './types.js';

interface Project {
  readonly id: string;
  readonly name: string;
}

/**
 * `ProviderPorts.projectId` for a run: the projects list is read once, on first use, and every
 * lookup after that is from memory. An unknown name is a clear error listing what the key can see.
 */
export function createProjectDirectory(api: ApiClient): (projectName: string) => Promise<string> {
  let projects: Promise<Map<string, string>> | undefined;
  const load = async () => {
    const items = await listAll<Project>(
      api,
      {
        path: '/auth/v1/projects/',
        route: '/auth/v1/projects/',
        auth: 'v1',
        operation: 'listing projects',
      },
      (b) => (b as { items?: Project[] } | null)?.items,
      (b) => (b as { count?: number } | null)?.count,
    );
    return new Map(items.map((p) => [p.name, p.id]));
  };
  return async (projectName) => {
    projects ??= load();
    projects.catch(() => {
      projects = undefined;
    });
    const byName = await projects;
    const id = byName.get(projectName);
    if (id !== undefined) return id;
    const known = [...byName.keys()].sort().join(', ') || 'none';
    throw new PlatctlError(
      'api',
      `project ${projectName} is unknown to the platform or not visible to this API key (visible: ${known})`,
    );
  };
}
