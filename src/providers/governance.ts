import type { Action } from '../model/action.js';
import type { Kind } from '../model/manifest.js';
import type { Provider } from '../model/provider.js';
import { unsupported } from './support/actions.js';

/** platctl's governance kinds: read by the engine at plan, never by the platform. */
type GovernanceKind = Extract<Kind, 'Policy' | 'PowerSchedule' | 'ChangeWindow'>;

/**
 * The provider of a governance kind: nothing on the platform to read, nothing to send. A Policy's
 * rules are checked against the plan (src/reconcile/policies.ts), a PowerSchedule's periods become
 * its instances' declared power state (src/reconcile/power-schedules.ts, which the ComputeInstance
 * provider acts on), a ChangeWindow holds or refuses actions (src/reconcile/change-windows.ts). So
 * the provider observes nothing and plans no action, which keeps these kinds out of the inventory
 * and out of pruning.
 */
export function governanceProvider<K extends GovernanceKind>(kind: K): Provider<K> {
  return {
    kind,
    async observe() {
      return [];
    },
    plan() {
      return [];
    },
    async execute(action: Action) {
      throw unsupported(kind, action);
    },
  };
}
