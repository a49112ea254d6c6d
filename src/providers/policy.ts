import type { Action } from '../model/action.js';
import type { Provider } from '../model/provider.js';
import { unsupported } from './support/actions.js';

/**
 * Policy is platctl's own kind: nothing on the platform to read, nothing to send. Its rules are
 * checked at plan (src/reconcile/policies.ts), so its provider observes nothing and plans no
 * action, which keeps policies out of the inventory and out of pruning.
 */
export const policyProvider: Provider<'Policy'> = {
  kind: 'Policy',

  async observe() {
    return [];
  },

  plan() {
    return [];
  },

  async execute(action: Action) {
    throw unsupported('Policy', action);
  },
};
