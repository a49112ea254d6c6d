import type { Clock } from '../../core/clock.js';
import { PlatctlError } from '../../core/errors.js';
import { cachedStore } from '../../state/cached.js';
import {
  describeHolder,
  isPostgresUrl,
  type LeaseHandle,
  type LeaseHolder,
  openState,
  type StateStore,
} from '../../state/index.js';
import type { LeasePort } from './lease-port.js';

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
    async renew() {
      if (!handle) return false;
      await handle.renew();
      return true;
    },
    lost: () => handle?.lost,
    abandon() {
      const held = handle;
      handle = undefined;
      held?.abandon?.();
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

/**
 * The lease's lifetime without renewal, how often it is asked for, and the renew deadline past
 * which a leader stops acting (pure). PostgreSQL frees the lock the moment its holder's session
 * ends, so standbys ask every second (one cheap query) to take over within seconds; SQLite
 * waits for the ttl anyway.
 */
export function leaseTiming(
  statePath: string,
  ttlMs = 15_000,
): { ttlMs: number; pollMs: number; renewDeadlineMs: number } {
  const pollMs = Math.max(
    10,
    Math.floor(isPostgresUrl(statePath) ? Math.min(1000, ttlMs / 3) : ttlMs / 3),
  );
  // client-go's proportions (15 s lease, 10 s renew deadline): another replica can take over no
  // sooner than a ttl after the last renewal the store saw, this one stops a third of it before
  return { ttlMs, pollMs, renewDeadlineMs: Math.floor((ttlMs * 2) / 3) };
}

/**
 * Opens the controller's state store (I/O). One replica holding the whole store's lease keeps
 * inventory and last-applied in memory while it holds it; sharded replicas, fenced per project,
 * read them each run.
 */
export async function openControllerState(
  statePath: string,
  options: { readonly clock: Clock; readonly holder: LeaseHolder; readonly sharded: boolean },
): Promise<StateStore> {
  const opened = await openState(statePath, { clock: options.clock });
  return options.sharded ? opened : cachedStore(opened, options.holder);
}
