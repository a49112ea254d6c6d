import type { Action } from '../model/action.js';
import type { Provider } from '../model/provider.js';
import { unsupported } from './support/actions.js';

/**
 * PowerSchedule is platctl's own kind: nothing on the platform to read, nothing to send. What a
 * schedule wants becomes its instances' declared power state at plan (src/reconcile/
 * power-schedules.ts), which the ComputeInstance provider acts on; so this provider observes
 * nothing and plans no action, which keeps schedules out of the inventory and out of pruning.
 */
export const powerScheduleProvider: Provider<'PowerSchedule'> = {
  kind: 'PowerSchedule',

  async observe() {
    return [];
  },

  plan() {
    return [];
  },

  async execute(action: Action) {
    throw unsupported('PowerSchedule', action);
  },
};
