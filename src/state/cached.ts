import { isFrozenJson } from '../core/freeze.js';
import type { Manifest } from '../model/manifest.js';
import {
  applyWrite,
  type InventoryEntry,
  type LeaseHolder,
  type StateStore,
  type StateWrite,
} from './types.js';

interface Copy {
  /** The lease's `since` the copy was read under. */
  readonly since: number;
  readonly inventory: Map<string, InventoryEntry>;
  readonly lastApplied: Map<string, Manifest>;
  sorted?: { inventory: InventoryEntry[]; lastApplied: [string, Manifest][] };
}

/** What a store gives back for a written value: its JSON form (undefined fields dropped). */
const stored = <T>(value: T): T => JSON.parse(JSON.stringify(value)) as T;

function storedEntry(e: InventoryEntry): InventoryEntry {
  return {
    key: e.key,
    kind: e.kind,
    ref: stored(e.ref),
    ...(e.id === undefined ? {} : { id: e.id }),
    createdByPlatctl: e.createdByPlatctl,
    protected: e.protected,
  };
}

const byKey = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * `store` with the inventory and the last-applied manifests kept in memory once read, its own
 * writes applied to that copy: a controller resyncing 10,000 resources reads neither table again
 * every interval. The copy is trusted only while `holder` holds the run lease without a break
 * (no other writer can have written): it is read afresh when the lease's `since` changed, dropped
 * when this store releases the lease, and not used at all (reads go to `store`) without the
 * lease. Answers as `store` would: keys in order, values in their stored JSON form.
 */
export function cachedStore(store: StateStore, holder: LeaseHolder): StateStore {
  let copy: Copy | undefined;

  /** The copy, if this holder holds the lease under which it was read (one small query). */
  const current = async (): Promise<Copy | undefined> => {
    const lease = await store.leaseHolder();
    if (lease?.id !== holder.id) {
      copy = undefined;
      return undefined;
    }
    if (copy?.since !== lease.since) {
      const [inventory, lastApplied] = [await store.inventory(), await store.lastApplied()];
      copy = {
        since: lease.since,
        inventory: new Map(inventory.map((e) => [e.key, e])),
        // a copy of its own, kept up to date below (a store may give a read-only view)
        lastApplied: new Map(lastApplied),
      };
    }
    return copy;
  };
  const sorted = (c: Copy) => {
    c.sorted ??= {
      inventory: [...c.inventory.values()].sort((a, b) => byKey(a.key, b.key)),
      lastApplied: [...c.lastApplied].sort((a, b) => byKey(a[0], b[0])),
    };
    return c.sorted;
  };
  /** Applies a write that `store` has made durable to the copy. */
  const keep = (w: StateWrite) => {
    const c = copy;
    if (!c) return;
    c.sorted = undefined;
    const put = {
      putInventory: (e: InventoryEntry) => void c.inventory.set(e.key, storedEntry(e)),
      removeInventory: (key: string) => void c.inventory.delete(key),
      // a manifest the planner froze is its own stored form: no second copy of 100,000 kept
      putLastApplied: (key: string, m: Manifest) =>
        void c.lastApplied.set(key, isFrozenJson(m) ? m : stored(m)),
      removeLastApplied: (key: string) => void c.lastApplied.delete(key),
      beginPending: () => {},
      clearPending: () => {},
      recordOutcome: () => {},
    };
    applyWrite(put, w);
  };
  const write = async (w: StateWrite) => {
    await applyWrite(store, w);
    keep(w);
  };

  return {
    path: store.path,
    inventory: async () => {
      const c = await current();
      return c ? [...sorted(c).inventory] : store.inventory();
    },
    lastApplied: async () => {
      const c = await current();
      return c ? new Map(sorted(c).lastApplied) : store.lastApplied();
    },
    putInventory: (entry) => write({ type: 'putInventory', entry }),
    removeInventory: (key) => write({ type: 'removeInventory', key }),
    putLastApplied: (key, manifest) => write({ type: 'putLastApplied', key, manifest }),
    removeLastApplied: (key) => write({ type: 'removeLastApplied', key }),
    pending: () => store.pending(),
    beginPending: (op) => store.beginPending(op),
    clearPending: (key) => store.clearPending(key),
    recordOutcome: (runId, actionId, key, outcome) =>
      store.recordOutcome(runId, actionId, key, outcome),
    batch: async (writes) => {
      await store.batch(writes);
      for (const w of writes) keep(w);
    },
    outcomes: () => store.outcomes(),
    pruneOutcomes: (keepRuns) => store.pruneOutcomes(keepRuns),
    acquire: async (options) => {
      const handle = await store.acquire(options);
      return {
        holder: handle.holder,
        renew: () => handle.renew(),
        release: async () => {
          copy = undefined;
          await handle.release();
        },
        ...(handle.lost ? { lost: handle.lost } : {}),
        ...(handle.abandon
          ? {
              abandon: () => {
                copy = undefined;
                handle.abandon?.();
              },
            }
          : {}),
      };
    },
    leaseHolder: () => store.leaseHolder(),
    unlock: async (holderId) => {
      copy = undefined;
      return store.unlock(holderId);
    },
    controllerStatus: () => store.controllerStatus(),
    putControllerStatus: (doc) => store.putControllerStatus(doc),
    controllerIntent: () => store.controllerIntent(),
    putControllerIntent: (doc) => store.putControllerIntent(doc),
    appendRun: (runId, doc, keep) => store.appendRun(runId, doc, keep),
    runs: (limit) => store.runs(limit),
    close: () => store.close(),
  };
}
