import { PlatctlError } from '../core/errors.js';
import { processHolder } from './holder.js';
import type { StateStore } from './types.js';

/** How many records of each kind a copy moved. */
export interface CopyCounts {
  readonly inventory: number;
  readonly lastApplied: number;
  readonly pending: number;
  readonly outcomes: number;
}

async function counts(store: StateStore): Promise<CopyCounts> {
  return {
    inventory: (await store.inventory()).length,
    lastApplied: (await store.lastApplied()).size,
    pending: (await store.pending()).length,
    outcomes: (await store.outcomes()).length,
  };
}

const empty = (c: CopyCounts) => Object.values(c).every((n) => n === 0);

/**
 * Copies everything `from` holds into the empty store `to` (I/O): inventory, last-applied
 * manifests, pending creates and the outcome history, through the port, so it works between any
 * two implementations. Holds both run leases meanwhile (no apply or controller writes to either),
 * refuses a target that already holds state, and checks the counts afterwards.
 */
export async function copyState(from: StateStore, to: StateStore): Promise<CopyCounts> {
  const holder = processHolder('migrate');
  const source = await held(from, () => from.acquire({ holder, heartbeat: true }));
  try {
    const target = await held(to, () => to.acquire({ holder, heartbeat: true }));
    try {
      const before = await counts(to);
      if (!empty(before)) {
        throw new PlatctlError(
          'state',
          `${to.path} already holds state (${before.inventory} managed resources); ` +
            'migrate into an empty store',
        );
      }
      for (const e of await from.inventory()) await to.putInventory(e);
      for (const [key, m] of await from.lastApplied()) await to.putLastApplied(key, m);
      for (const p of await from.pending()) await to.beginPending(p);
      for (const o of await from.outcomes()) {
        await to.recordOutcome(o.runId, o.actionId, o.key, o.outcome);
      }
      // the controller's status, intent (a suspension) and run history, so a migrated controller forgets nothing
      const doc = await from.controllerStatus();
      if (doc) await to.putControllerStatus(doc);
      const intent = await from.controllerIntent();
      if (intent) await to.putControllerIntent(intent);
      const runs = await from.runs(1000);
      for (const r of [...runs].reverse()) {
        await to.appendRun(String(r.runId), r, Math.max(1, runs.length));
      }
      const [moved, copied] = [await counts(from), await counts(to)];
      if (JSON.stringify(moved) !== JSON.stringify(copied)) {
        throw new PlatctlError(
          'state',
          `the copy does not match: source ${JSON.stringify(moved)}, target ${JSON.stringify(copied)}`,
        );
      }
      return copied;
    } finally {
      await target.release();
    }
  } finally {
    await source.release();
  }
}

/**
 * Takes `store`'s lease for the copy; held by another (`locked`): a copy is of a store nothing
 * writes to, so the holder (an apply, a controller) is to be stopped first — said so.
 */
async function held<T>(store: StateStore, take: () => Promise<T>): Promise<T> {
  try {
    return await take();
  } catch (err) {
    if (!(err instanceof PlatctlError && err.code === 'locked')) throw err;
    throw new PlatctlError(
      'locked',
      `cannot copy ${store.path} while something holds it: ${err.message}. A copy is made of ` +
        'a store nothing writes to: stop it (scale the controller to 0, let an apply finish), then migrate',
      { cause: err },
    );
  }
}
