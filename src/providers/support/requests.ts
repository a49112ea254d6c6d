import type { ApiFamily, ApiResponse } from '../../model/api.js';
import type { ExecuteResult, ProviderPorts } from '../../model/provider.js';

/**
 * Sends a DELETE for one resource (I/O). A 404 is an answer, not an error: the resource is
 * already gone, which is what a delete wants. Waiting for an asynchronous delete is the caller's.
 */
export async function sendDelete(
  ports: ProviderPorts,
  req: { path: string; route: string; auth: ApiFamily; what: string },
): Promise<void> {
  await ports.api.request({
    method: 'DELETE',
    path: req.path,
    route: req.route,
    auth: req.auth,
    operation: `deleting ${req.what}`,
    accept: [404],
    idempotent: true,
    signal: ports.signal,
  });
}

/**
 * What a create's answer says about who made the object (pure): `unproven` when no answer was
 * read but the existence check found it (see {@link ExecuteResult.ownership}); `found` when the
 * platform answered with one of `existing` (a create-or-update POST that updated); nothing when
 * the answer proves this call created it.
 */
export function createOwnership(
  res: ApiResponse,
  existing: readonly number[] = [],
): Pick<ExecuteResult, 'ownership'> {
  if (res.recovered) return { ownership: 'unproven' };
  return existing.includes(res.status) ? { ownership: 'found' } : {};
}
