import type { ApiClient, ApiRequest, RequestProgress } from '../../model/api.js';

/**
 * The API client as a run sees it: every step of a request is progress for the loop's watchdog —
 * each attempt as it starts, each retry wait as it begins, and the answer — so a request that
 * keeps retrying for minutes keeps beating, while one attempt that hangs past its own timeout
 * (or a transport that has none) does not. No I/O of its own; the caller's `onProgress` still runs.
 */
export function beatingApi(api: ApiClient, beat: (what: string) => void): ApiClient {
  return {
    groups: api.groups,
    paths: api.paths,
    dialect: api.dialect,
    request: <T>(r: ApiRequest) => {
      const name = `${r.method} ${r.route ?? 'request'}`;
      const onProgress = (e: RequestProgress) => {
        r.onProgress?.(e);
        beat(e.phase === 'attempt' ? `${name} attempt ${e.attempt}` : `${name} retry wait`);
      };
      return api.request<T>({ ...r, onProgress }).finally(() => beat(name));
    },
  };
}
