import type { HandlerMap } from '../http/types.js';
import type { OperationEntry } from './load-document.js';

/**
 * Problems pairing operations with handlers: an operation of the document with no handler, or a
 * handler for no operation. Empty when every operationId has exactly one handler. Pure.
 */
export function checkHandlers(
  operations: readonly OperationEntry[],
  handlers: HandlerMap,
): string[] {
  const ids = new Set(operations.map((o) => o.operationId));
  return [
    ...operations
      .filter((o) => !(o.operationId in handlers))
      .map((o) => `operation ${o.operationId} (${o.method} ${o.path}) has no handler`),
    ...Object.keys(handlers)
      .filter((id) => !ids.has(id))
      .map((id) => `handler ${id} matches no operation of the OpenAPI document`),
  ];
}
