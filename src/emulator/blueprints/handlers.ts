import type { HandlerMap } from '../http/types.js';
import {
  disableBlueprintVersion,
  enableBlueprintVersion,
  forceSyncBlueprint,
} from './blueprints.js';

/** Blueprint handlers (api/fragments/blueprints.yaml) keyed by operationId. */
export const blueprintHandlers: HandlerMap = {
  forceSyncBlueprint,
  enableBlueprintVersion,
  disableBlueprintVersion,
};
