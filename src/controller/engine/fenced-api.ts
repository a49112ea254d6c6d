import { PlatctlError } from '../../core/errors.js';
import type { ApiClient, ApiRequest } from '../../model/api.js';

/**
 * The API client as a run of a replica that may lose the lease sees it: a request that changes
 * the platform (anything but GET) is refused with `locked`, unsent, once `canWrite` says this
 * replica can no longer prove it leads — asked when it is made and again right before each
 * attempt leaves (after its wait for the rate limit), so also the second request of an action
 * already going (a create then a publish), which the executor's check before each action cannot
 * stop. No I/O of its own.
 */
export function fencedApi(api: ApiClient, canWrite: () => boolean): ApiClient {
  return {
    groups: api.groups,
    paths: api.paths,
    dialect: api.dialect,
    request: <T>(r: ApiRequest) => {
      if (r.method === 'GET') return api.request<T>(r);
      if (!canWrite()) {
        return Promise.reject(
          new PlatctlError(
            'locked',
            `${r.operation}: not sent, this replica no longer leads (its lease was not renewed in time)`,
          ),
        );
      }
      const mayStart = r.mayStart;
      return api.request<T>({ ...r, mayStart: () => canWrite() && (mayStart?.() ?? true) });
    },
  };
}
