import type { ApiClient } from '../model/api.js';
import type { ProfileNames } from '../model/provider.js';
import { seg } from './support/list.js';

interface ProfileList {
  items?: { metadata?: { name?: unknown } }[];
}

/**
 * The profiles a project may use, read once per project and kind on first use (I/O), where the
 * dialect can read profiles (`profileReads`); undefined where it cannot, so plan checks nothing.
 */
export function createProfileDirectory(api: ApiClient): ProfileNames | undefined {
  if (!api.dialect.profileReads) return undefined;
  const cache = new Map<string, Promise<ReadonlySet<string>>>();
  return (project, kind) => {
    const key = `${kind}/${project}`;
    let names = cache.get(key);
    if (!names) {
      const which = kind === 'compute' ? 'computeprofiles' : 'serviceprofiles';
      names = api
        .request<ProfileList>({
          method: 'GET',
          path: `/apis/${api.groups.paas}/v1/projects/${seg(project)}/${which}`,
          route: `/apis/{paas}/v1/projects/{project}/${which}`,
          auth: 'paas',
          operation: `listing the ${kind} profiles of project ${project}`,
        })
        .then(
          (res) =>
            new Set(
              (res.body?.items ?? [])
                .map((p) => p.metadata?.name)
                .filter((n): n is string => typeof n === 'string'),
            ),
        );
      cache.set(key, names);
    }
    return names;
  };
}
