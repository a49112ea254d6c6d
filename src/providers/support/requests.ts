import type { AuthGeneration, ProviderPorts } from '../types.js';

/**
 * Sends a DELETE for one resource (I/O). A 404 is an answer, not an error: the resource is
 * already gone, which is what a delete wants. Waiting for an asynchronous delete is the caller's.
 */
export async function sendDelete(
  ports: ProviderPorts,
  req: { path: string; route: string; auth: AuthGeneration; what: string },
): Promise<void> {
  await ports.api.request({
    method: 'DELETE',
    path: req.path,
    route: req.route,
    auth: req.auth,
    operation: `deleting ${req.what}`,
    accept: [404],
    signal: ports.signal,
  });
}
