import { billingHandlers } from './billing/handlers.js';
import { blueprintHandlers } from './blueprints/handlers.js';
import { clusterHandlers } from './clusters/handlers.js';
import { dialectHandlers } from './dialect-handlers.js';
import type { HandlerMap } from './http/types.js';
import { identityHandlers } from './identity/handlers.js';
import { paasHandlers } from './paas/handlers.js';

export { failResource } from './paas/controls.js';

/**
 * Every handler of the emulator keyed by operationId: identity, clusters and blueprints, plus the
 * paas and billing maps. Startup checks that this map and the OpenAPI document agree; a name
 * defined by two maps is a startup error here rather than a silent override.
 */
export const allHandlers: HandlerMap = mergeMaps([
  identityHandlers,
  clusterHandlers,
  blueprintHandlers,
  paasHandlers,
  billingHandlers,
]);

/**
 * The handlers of the operations a document has: the spec's above and the reads dialects add
 * (api/dialects/), keeping those whose operationId the document (as shaped for its dialect) has.
 */
export function handlersFor(operationIds: ReadonlySet<string>): HandlerMap {
  const every = mergeMaps([allHandlers, dialectHandlers]);
  return Object.fromEntries(Object.entries(every).filter(([id]) => operationIds.has(id)));
}

function mergeMaps(maps: readonly HandlerMap[]): HandlerMap {
  const out: Record<string, HandlerMap[string]> = {};
  for (const map of maps) {
    for (const [id, handler] of Object.entries(map)) {
      if (id in out) throw new Error(`two handlers for operationId ${id}`);
      out[id] = handler;
    }
  }
  return out;
}
