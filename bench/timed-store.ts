import type { StateStore } from '../src/state/types.js';

const WRITES = [
  'putInventory',
  'removeInventory',
  'putLastApplied',
  'removeLastApplied',
  'beginPending',
  'clearPending',
  'recordOutcome',
  'batch',
] as const;

/**
 * `store` with the time spent awaiting its writes summed in `writeMs` (overlapping writes each
 * count in full: it is time the engine's actions waited on the state, not wall time).
 */
export function timedStore(store: StateStore): StateStore & { writeMs: number; writes: number } {
  const timed = Object.create(store) as StateStore & { writeMs: number; writes: number };
  timed.writeMs = 0;
  timed.writes = 0;
  for (const name of WRITES) {
    const method = store[name] as (...args: unknown[]) => Promise<void>;
    if (typeof method !== 'function') continue;
    Object.defineProperty(timed, name, {
      value: async (...args: unknown[]) => {
        const start = performance.now();
        try {
          return await method.apply(store, args);
        } finally {
          timed.writeMs += performance.now() - start;
          timed.writes++;
        }
      },
    });
  }
  return timed;
}
