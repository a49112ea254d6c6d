import type { Clock } from '../core/clock.js';
import type { Action, ActionOutcome } from '../model/action.js';
import { type Manifest, type PlatctlKind, PRUNE_ANNOTATION } from '../model/manifest.js';
import type { Plan } from '../model/plan.js';
import type { ExecuteResult } from '../model/provider.js';
import type { InventoryEntry, StateStore, StateWrite } from '../state/types.js';
import { sameJson } from './same-json.js';

/** `w`, a pending record made at `at` (the time of the transaction that holds it). */
function stamped(w: StateWrite, at: number): StateWrite {
  return w.type === 'beginPending' ? { type: w.type, op: { ...w.op, startedAt: at } } : w;
}

/** Kinds the API cannot read: they exist only because platctl made them so. */
const PLATCTL_ONLY: ReadonlySet<string> = new Set<PlatctlKind>([
  'ProjectAssignment',
  'BlueprintPublish',
  'BlueprintVersion',
  'ClusterControllers',
]);

/** The executor's hooks that write the state store; each resolves once its writes are durable. */
export interface Recorder {
  beforeStart(a: Action): Promise<void>;
  /**
   * Resolves once the writes of a settled action are durable; undefined when it had none to make
   * (a noop the state already knew as it is), with nothing to wait for.
   */
  settled(a: Action, outcome: ActionOutcome, result?: ExecuteResult): Promise<void> | undefined;
  /** Drops the plan's {@link Plan.forget} keys: pruned with nothing to send. */
  forgotten(): Promise<void>;
}

/**
 * Commits no closer together than `gapMs` (timed on `sleep`): for a paced run, whose requests
 * wait their turn at the rate limiter anyway, so the records of the actions answered within one
 * gap share a commit instead of one commit per answer (at 1,000 rps, one every millisecond).
 */
export interface CommitPacing {
  readonly gapMs: number;
  readonly sleep: Clock['sleep'];
}

/** What the state held as the plan was made, read once for both (read from the store if absent). */
export interface KnownState {
  readonly inventory: readonly InventoryEntry[];
  readonly lastApplied: ReadonlyMap<string, Manifest>;
}

/**
 * The executor's hooks that keep the state store current (I/O): a pending record before each
 * create, the inventory after each success, and the last-applied manifest of a key once every
 * action of that key has succeeded. `known` is not mutated.
 */
export async function createRecorder(
  store: StateStore,
  plan: Plan,
  desired: ReadonlyMap<string, Manifest>,
  runId: string,
  now: () => number,
  known?: KnownState,
  pacing?: CommitPacing,
): Promise<Recorder> {
  const remaining = new Map<string, number>();
  for (const a of plan.actions) remaining.set(a.key, (remaining.get(a.key) ?? 0) + 1);
  const failedKeys = new Set<string>();
  // keys whose actions take a resource off the platform, whatever the action (delete, unassign)
  const pruning = new Set(
    plan.actions.filter((a) => a.reason.code === 'removed-from-git').map((a) => a.key),
  );
  /** The writes of the hooks called since the last commit, not yet committed. */
  let writes: StateWrite[] = [];
  let group: Promise<void> | undefined;
  let lastCommit = Number.NEGATIVE_INFINITY;
  /**
   * Group commit: the hooks called in one turn of the event loop (the queue starts and settles
   * actions in bursts) share one transaction, committed in the next turn (paced: no sooner than
   * `pacing.gapMs` after the last one); each hook resolves only once the transaction holding its
   * writes is committed, and every hook of a failed one rejects. So a create's pending record is
   * still durable before its request is sent, with one commit for a burst instead of one per
   * action. (The executor starts the next action before a settle's commit, so the two share it
   * even when requests are answered one at a time.) A pending record's `startedAt` is the time
   * its transaction is made, not when it was asked for: however long it waited to be committed,
   * it is no further ahead of its request than a record written at once.
   */
  const commit = (): Promise<void> => {
    group ??= turn().then(async () => {
      group = undefined;
      const these = writes;
      writes = [];
      lastCommit = now();
      if (these.length > 0) await store.batch(these.map((w) => stamped(w, lastCommit)));
    });
    return group;
  };
  const turn = (): Promise<void> => {
    const wait = pacing ? pacing.gapMs - (now() - lastCommit) : 0;
    return pacing && wait > 0
      ? pacing.sleep(wait)
      : new Promise<void>((resolve) => setImmediate(resolve));
  };
  const forget = (key: string) => {
    writes.push({ type: 'removeInventory', key }, { type: 'removeLastApplied', key });
    inventory.delete(key);
  };
  const inventory = new Map((known?.inventory ?? (await store.inventory())).map((e) => [e.key, e]));
  const applied = known?.lastApplied ?? (await store.lastApplied());
  // nothing known yet (every create): different without walking the new value to say so
  const same = (a: unknown, b: unknown) =>
    a === undefined || b === undefined ? a === b : sameJson(a, b);

  /** `created`: true (this state's 2xx), false (found: someone else's), undefined (as known). */
  const remember = (a: Action, result: ExecuteResult | undefined, created?: boolean) => {
    const known = inventory.get(a.key);
    const manifest = desired.get(a.key);
    const id = result?.id ?? a.target.id ?? known?.id;
    const entry = {
      key: a.key,
      kind: a.target.kind,
      ref: { ...a.target, ...(id ? { id } : {}) },
      ...(id ? { id } : {}),
      createdByPlatctl:
        created ?? (known?.createdByPlatctl === true || PLATCTL_ONLY.has(a.target.kind)),
      protected: manifest?.metadata.annotations?.[PRUNE_ANNOTATION] === 'disabled',
    };
    if (same(known, entry)) return; // nothing new: spare the write
    inventory.set(a.key, entry);
    writes.push({ type: 'putInventory', entry });
  };

  return {
    async beforeStart(a: Action) {
      if (a.type === 'create') {
        const op = { key: a.key, actionId: a.id, ref: a.target, startedAt: now() };
        writes.push({ type: 'beginPending', op });
        await commit();
      }
    },
    settled(a: Action, outcome: ActionOutcome, result?: ExecuteResult) {
      // Every write of a settling action goes in one transaction (one commit, not five).
      if (a.type === 'noop') {
        // in sync: nothing happened worth an outcome row (a resync of 10,000 would add 10,000
        // a run); only what the state had not known yet (an id, a last-applied manifest), and
        // no promise when there is nothing to write
        return settleNoop(a) ? commit() : undefined;
      }
      settle(a, outcome, result);
      return commit();
    },
    async forgotten() {
      for (const key of plan.forget ?? []) forget(key);
      await commit();
    },
  };

  /** A noop's writes (true when there are any): the inventory and last-applied it brings up to date. */
  function settleNoop(a: Action): boolean {
    const before = writes.length;
    if (!pruning.has(a.key)) remember(a, undefined);
    const left = remaining.get(a.key)! - 1;
    remaining.set(a.key, left);
    if (left === 0 && !failedKeys.has(a.key)) {
      const manifest = desired.get(a.key);
      if (manifest && !same(applied.get(a.key), manifest)) {
        writes.push({ type: 'putLastApplied', key: a.key, manifest });
      } else if (!manifest && pruning.has(a.key)) forget(a.key);
    }
    return writes.length > before;
  }

  function settle(a: Action, outcome: ActionOutcome, result?: ExecuteResult): void {
    writes.push({ type: 'recordOutcome', runId, actionId: a.id, key: a.key, outcome });
    const create = a.type === 'create';
    if (outcome.status !== 'succeeded') failedKeys.add(a.key);
    else if (a.type === 'delete') forget(a.key);
    else if (create && result?.ownership) {
      // not proven ours: found (an `unproven` pending record stays for the next run to judge)
      remember(a, result, false);
    } else if (!pruning.has(a.key)) remember(a, result, create ? true : undefined);
    if (create && outcome.status === 'failed' && outcome.code === 'exists') {
      remember(a, result, false); // someone else's object, not ours to prune
      writes.push({ type: 'clearPending', key: a.key });
    }
    if (create && outcome.status === 'succeeded' && result?.ownership !== 'unproven') {
      writes.push({ type: 'clearPending', key: a.key });
    }
    const left = remaining.get(a.key)! - 1;
    remaining.set(a.key, left);
    if (left > 0 || failedKeys.has(a.key)) return;
    const manifest = desired.get(a.key);
    if (manifest && !same(applied.get(a.key), manifest)) {
      writes.push({ type: 'putLastApplied', key: a.key, manifest });
    }
    // a prune completed by actions other than a delete: the resource leaves the inventory
    else if (!manifest && pruning.has(a.key) && a.type !== 'delete') forget(a.key);
  }
}
