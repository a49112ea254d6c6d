import type pg from 'pg';
import { PlatctlError } from '../../core/errors.js';
import { shardOfKey } from '../shards.js';
import { onlyKeys } from '../stored-manifests.js';
import { applyWrite, type StateStore, type StateWrite } from '../types.js';
import { classifiedError } from './classify.js';
import type { Fence } from './lease.js';
import { fencedWrite, inTransaction } from './write.js';
import { pruneOutcomesOn, writerOn } from './writer.js';

/**
 * `base` as one replica's run sees it while it holds the shards of `fences` (I/O on `pool`):
 * inventory, last-applied, pending records and outcomes of those shards only, so a run plans
 * and prunes nothing of another replica's projects; every write carries the epoch of its own
 * shard's lock, and a write to a shard not in `fences` is refused. The controller's status and
 * history, and the run lease, are the base store's.
 */
export function scopedStore(
  base: StateStore,
  pool: pg.Pool,
  fences: ReadonlyMap<string, Fence>,
): StateStore {
  const mine = (key: string) => fences.has(shardOfKey(key));
  const fenceOf = (key: string): Fence => {
    const fence = fences.get(shardOfKey(key));
    if (!fence) {
      throw new PlatctlError(
        'locked',
        `write refused: ${key} belongs to shard ${shardOfKey(key)}, which this replica does not hold`,
      );
    }
    return fence;
  };
  const send = async (client: pg.Pool | pg.PoolClient, w: StateWrite) => {
    const fence = fenceOf(keyOf(w));
    await applyWrite(
      writerOn((sql, params) => fencedWrite(client, fence, sql, params)),
      w,
    );
  };
  const one = (w: StateWrite) => classify(base.path, () => send(pool, w));
  const view: StateStore = {
    ...base,
    // already the view of one run, at the epochs it started with
    pinned: () => view,
    inventory: async () => (await base.inventory()).filter((e) => mine(e.key)),
    lastApplied: async () => onlyKeys(await base.lastApplied(), mine),
    pending: async () => (await base.pending()).filter((p) => mine(p.key)),
    outcomes: async () => (await base.outcomes()).filter((o) => mine(o.key)),
    putInventory: (entry) => one({ type: 'putInventory', entry }),
    removeInventory: (key) => one({ type: 'removeInventory', key }),
    putLastApplied: (key, manifest) => one({ type: 'putLastApplied', key, manifest }),
    removeLastApplied: (key) => one({ type: 'removeLastApplied', key }),
    beginPending: (op) => one({ type: 'beginPending', op }),
    clearPending: (key) => one({ type: 'clearPending', key }),
    recordOutcome: (runId, actionId, key, outcome) =>
      one({ type: 'recordOutcome', runId, actionId, key, outcome }),
    // runs are not a shard's: the newest runs of every replica are kept, fenced by a shard held
    pruneOutcomes: (keepRuns) => {
      const [fence] = fences.values();
      if (!fence) return Promise.resolve();
      const prune = pruneOutcomesOn((sql, params) => fencedWrite(pool, fence, sql, params));
      return classify(base.path, () => prune(keepRuns));
    },
    batch: (writes) =>
      classify(base.path, async () => {
        if (writes.length === 0) return;
        await inTransaction(pool, async (client) => {
          for (const w of writes) await send(client, w);
        });
      }),
    // the base store is the controller's to close
    close: async () => {},
  };
  return view;
}

/** The identity key a write is about, which decides its shard. */
function keyOf(w: StateWrite): string {
  switch (w.type) {
    case 'putInventory':
      return w.entry.key;
    case 'beginPending':
      return w.op.key;
    default:
      return w.key;
  }
}

async function classify(display: string, f: () => Promise<void>): Promise<void> {
  try {
    await f();
  } catch (err) {
    throw classifiedError(display, err);
  }
}
