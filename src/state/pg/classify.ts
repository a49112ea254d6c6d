import { PlatctlError } from '../../core/errors.js';
import type { StateStore } from '../types.js';

/**
 * `store` whose failures are all classified: a driver or server error (connection lost, server
 * shutting down) becomes a `state` error naming the store without its password; platctl's own
 * errors (`locked` for a refused write) and rejected arguments pass unchanged.
 */
export function classified(display: string, store: StateStore): StateStore {
  const out: Record<string, unknown> = { ...store };
  for (const [name, method] of Object.entries(store)) {
    // `pinned` answers at once with a store whose methods are classified already
    if (typeof method !== 'function' || name === 'pinned') continue;
    out[name] = async (...args: unknown[]) => {
      try {
        return await (method as (...a: unknown[]) => Promise<unknown>)(...args);
      } catch (err) {
        throw classifiedError(display, err);
      }
    };
  }
  return out as unknown as StateStore;
}

/**
 * What a store call that failed with `err` throws: a driver or server error becomes a `state`
 * error naming the store `display` (never its password); platctl's own errors and a caller's
 * mistake (TypeError, RangeError: not the store's failure) pass unchanged. Pure.
 */
export function classifiedError(display: string, err: unknown): unknown {
  if (err instanceof PlatctlError || err instanceof TypeError || err instanceof RangeError) {
    return err;
  }
  return new PlatctlError('state', `the state store ${display}: ${messageOf(err)}`, { cause: err });
}

/** The message of a thrown value. Pure. */
export function messageOf(err: unknown): string {
  return err instanceof Error ? err.message : String(err);
}
