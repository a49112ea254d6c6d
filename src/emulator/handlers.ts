import type { EmuContext, HandlerMap } from './http/types.js';

/**
 * Every handler of the emulator keyed by operationId: identity, clusters and blueprints here,
 * plus the paas and billing maps. Startup checks that this map and the OpenAPI document agree.
 */
export const allHandlers: HandlerMap = {};

/** Drives a paas resource to `failed` (POST /_emulator/fail); undefined until paas provides it. */
export const failResource:
  | ((ctx: EmuContext, body: Record<string, unknown>) => unknown)
  | undefined = undefined;
