import type { Action } from '../model/action.js';
import type { Provider } from '../model/provider.js';
import { unsupported } from './support/actions.js';

/**
 * ChangeWindow is platctl's own kind: nothing on the platform to read, nothing to send. Its
 * windows are checked against the plan (src/reconcile/change-windows.ts), so its provider
 * observes nothing and plans no action: windows stay out of the inventory and out of pruning.
 */
export const changeWindowProvider: Provider<'ChangeWindow'> = {
  kind: 'ChangeWindow',

  async observe() {
    return [];
  },

  plan() {
    return [];
  },

  async execute(action: Action) {
    throw unsupported('ChangeWindow', action);
  },
};
