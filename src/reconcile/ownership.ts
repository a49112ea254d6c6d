import { PlatctlError } from '../core/errors.js';
import type { Action } from '../model/action.js';
import { ApiError } from '../model/api-errors.js';
import type { LiveObject } from '../model/provider.js';
import type { PendingOperation, StateStore } from '../state/types.js';
import type { EventSink } from './events.js';

/**
 * Who made an object. An object is this state's own only when this state saw a 2xx answer to its
 * own create, or when a pending record proves the create was ours; anything else on the platform
 * is *found*: updated to git's form like any declared object, shown as found in the plan, and
 * never pruned. docs/plan-apply.md ("Ownership") says what the API cannot prove.
 */

/**
 * True when a pending create is proven this state's own (pure): the platform says the object was
 * created at or after the pending record, which is written just before the create is sent (and
 * the create was only planned because the object was absent when observed). An object without a
 * creation time (users: the API does not return one) is never proven.
 */
function provenOurs(op: PendingOperation, live: LiveObject): boolean {
  return live.createdAt !== undefined && live.createdAt >= op.startedAt;
}

/**
 * Settles the creates an earlier run started and never confirmed (I/O on the store): an object
 * now live enters the inventory as created by platctl when {@link provenOurs}, as found otherwise;
 * either way this run updates it instead of creating a duplicate. A pending create with nothing
 * live is forgotten (it will be planned again). Resolves true when it wrote to the store (there
 * were pending creates), so a caller holding the inventory it read before knows to read it again.
 */
export async function adoptPending(
  store: StateStore,
  live: readonly LiveObject[],
  events?: EventSink,
  unreadable: ReadonlyMap<string, unknown> = new Map(),
): Promise<boolean> {
  const pending = await store.pending();
  // most runs have none: no maps of every live object and inventory entry (100,000 each) then
  if (pending.length === 0) return false;
  const liveByKey = new Map(live.map((l) => [l.key, l]));
  const inventory = new Map((await store.inventory()).map((e) => [e.key, e]));
  for (const op of pending) {
    if (unreadable.has(op.key)) continue; // not known to be absent: kept for a run that can read
    const found = liveByKey.get(op.key);
    if (found) {
      const ours = provenOurs(op, found);
      await store.putInventory({
        key: op.key,
        kind: op.ref.kind,
        ref: found.ref,
        ...(found.ref.id ? { id: found.ref.id } : {}),
        createdByPlatctl: ours,
        protected: inventory.get(op.key)?.protected ?? false,
      });
      events?.(ours ? { type: 'adopted', key: op.key } : { type: 'found', key: op.key });
    }
    await store.clearPending(op.key);
  }
  return true;
}

/**
 * The error a create ends with (pure): a 409, or the platform's `already_exists` code, means
 * someone else made the object first; it becomes a `exists` error, which the recorder turns into
 * a *found* inventory entry. Any other error is returned unchanged.
 */
export function createError(action: Action, err: unknown): unknown {
  if (action.type !== 'create' || !(err instanceof ApiError)) return err;
  if (err.status !== 409 && err.apiCode !== 'already_exists') return err;
  return new PlatctlError(
    'exists',
    `${action.key} already exists on the platform and was not created by this state: ` +
      'recorded as found, not created (never pruned); the next run updates it to match git',
    { cause: err },
  );
}
