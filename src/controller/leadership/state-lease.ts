import { PlatctlError } from '../../core/errors.js';
import {
  describeHolder,
  type LeaseHandle,
  type LeaseHolder,
  type StateStore,
} from '../../state/index.js';
import type { LeasePort } from './lease-keeper.js';

/**
 * Leader election on the state store's run lease: the replica holding it acts, others stand by
 * and take over once it is released or expires. Re-acquiring with the same holder is how the
 * lease is kept, which also restores it if a run released it on its way out.
 */
export function stateStoreLease(
  store: StateStore,
  holder: LeaseHolder,
  options: { ttlMs: number },
): LeasePort {
  let handle: LeaseHandle | undefined;
  return {
    async tryAcquire() {
      try {
        handle = await store.acquire({ holder, waitMs: 0, ttlMs: options.ttlMs, heartbeat: false });
        return true;
      } catch (err) {
        if (err instanceof PlatctlError && err.code === 'locked') return false;
        throw err;
      }
    },
    async holder() {
      const info = await store.leaseHolder();
      return info && info.id !== holder.id ? describeHolder(info) : undefined;
    },
    async release() {
      const held = handle;
      handle = undefined;
      await held?.release();
    },
  };
}
