import { GLOBAL_SHARD, type StoredJson, shardOfKey } from '../../../state/index.js';
import { SOURCE_FIELDS } from '../../status/persist.js';
import type { BlockedPrune, ControllerStatus, StepMemory } from '../../status/status.js';
import { SHARD_DOC_VERSION } from './shard-docs.js';

/**
 * Takes the resources of `shards` out of `status` and `memory` (mutates both): they are not held.
 * One pass over each list whatever the number of shards (a replica that gives up or takes 300
 * shards at once does not read the status 300 times).
 */
export function dropShards(
  shards: ReadonlySet<string>,
  status: ControllerStatus,
  memory: StepMemory,
): void {
  if (shards.size === 0) return;
  const other = (key: string) => !shards.has(shardOfKey(key));
  status.conditions = status.conditions.filter((c) => other(c.key));
  status.drift = status.drift.filter(other);
  status.inventory = status.inventory.filter(other);
  const keys = status.blockedPrune?.keys.filter(other) ?? [];
  status.blockedPrune =
    status.blockedPrune && keys.length > 0
      ? { ...status.blockedPrune, count: keys.length, keys }
      : undefined;
  if (memory.approvedDeletes) memory.approvedDeletes = memory.approvedDeletes.filter(other);
}

const list = <T>(v: unknown) => (Array.isArray(v) ? (v as T[]) : []);

/** Appends `items` to `to` one by one (a spread of 100,000 arguments would overflow the stack). */
function append<T>(to: T[], items: readonly T[]): void {
  for (const item of items) to.push(item);
}

/**
 * Puts each shard's saved document into `status` and `memory` in place of what they held of it
 * (mutates both), in `docs`' order; returns the shards restored. A document that is missing or of
 * another version is not (the first run rebuilds it). The source's fields only fill a replica
 * that has not run yet: its own are newer. Each document holds only its own shard's resources
 * (`shardDocuments` writes them so), so dropping every restored shard first and then appending
 * their documents is restoring them one after the other.
 */
export function restoreShards(
  docs: Iterable<readonly [string, StoredJson | undefined]>,
  status: ControllerStatus,
  memory: StepMemory,
): Set<string> {
  const valid = [...docs].filter(
    (e): e is readonly [string, StoredJson] => e[1]?.version === SHARD_DOC_VERSION,
  );
  const restored = new Set(valid.map(([shard]) => shard));
  dropShards(restored, status, memory);
  for (const [shard, doc] of valid) {
    append(status.conditions, list<ControllerStatus['conditions'][number]>(doc.conditions));
    append(status.drift, list<string>(doc.drift));
    append(status.inventory, list<string>(doc.inventory));
    const prune = doc.blockedPrune as BlockedPrune | undefined;
    if (prune) {
      const keys = [...(status.blockedPrune?.keys ?? []), ...prune.keys];
      status.blockedPrune = { ...(status.blockedPrune ?? prune), count: keys.length, keys };
    }
    const approved = list<string>(doc.approvedDeletes);
    if (approved.length > 0) {
      memory.approvedDeletes = [...(memory.approvedDeletes ?? [])];
      append(memory.approvedDeletes as string[], approved);
    }
    if (shard === GLOBAL_SHARD && status.lastRunAt === undefined) {
      const target = status as unknown as Record<string, unknown>;
      for (const k of SOURCE_FIELDS) if (doc[k] !== undefined) target[k] = doc[k];
      // a suspension saved before the fleet's intent had a document of its own (`intent.ts`)
      if (doc.suspendedByApi === true) {
        memory.suspended = true;
        status.suspended = true;
      }
    }
  }
  return restored;
}
