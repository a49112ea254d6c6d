import { PlatctlError } from '../../../core/errors.js';
import type { Logger } from '../../../core/logger.js';
import {
  GLOBAL_SHARD,
  type ShardCoordinator,
  type StateStore,
  type StoredJson,
  shardOfKey,
} from '../../../state/index.js';
import type { AlertMemory } from '../../notify/memory.js';
import { HISTORY_SIZE, type StoredRun } from '../../status/history.js';
import { SOURCE_FIELDS, WrittenDocs } from '../../status/persist.js';
import type { BlockedPrune, ControllerStatus, StepMemory } from '../../status/status.js';

const VERSION = 1;

/** What the notifications remember, as the book saves and restores it per shard. */
export interface AlertBook {
  memory(): AlertMemory;
  /** Adds a shard's saved memory to its own (a shard taken over). */
  merge(doc: unknown): void;
}

/**
 * The part of the alerts' memory that is `shard`'s (pure): the keys of its resources, and the
 * run's marks, which every shard's document carries so that whoever takes any of them knows.
 */
function alertsOf(shard: string, memory: AlertMemory): AlertMemory {
  const mine = (keys: readonly string[]) => keys.filter((k) => shardOfKey(k) === shard);
  const prune = memory.keys.prune ? mine(memory.keys.prune) : [];
  return {
    ...memory,
    keys: {
      failed: mine(memory.keys.failed),
      drifted: mine(memory.keys.drifted),
      corrected: mine(memory.keys.corrected),
      ...(prune.length > 0 ? { prune } : {}),
    },
  };
}

/**
 * The status document of `shard` (pure): the conditions, drift, inventory, held prune and
 * approved deletions of its resources; for `global`, also the source's revisions and results.
 */
function shardDocument(
  shard: string,
  status: ControllerStatus,
  memory: StepMemory,
  alerts: AlertMemory | undefined,
): StoredJson {
  const mine = (key: string) => shardOfKey(key) === shard;
  const doc: Record<string, unknown> = {
    version: VERSION,
    conditions: status.conditions.filter((c) => mine(c.key)),
    drift: status.drift.filter(mine),
    inventory: status.inventory.filter(mine),
    ...(alerts ? { alerts: alertsOf(shard, alerts) } : {}),
  };
  const prune = status.blockedPrune?.keys.filter(mine) ?? [];
  if (status.blockedPrune && prune.length > 0) {
    doc.blockedPrune = { ...status.blockedPrune, count: prune.length, keys: prune };
  }
  const approved = memory.approvedDeletes?.filter(mine) ?? [];
  if (approved.length > 0) doc.approvedDeletes = approved;
  if (shard === GLOBAL_SHARD) {
    for (const k of SOURCE_FIELDS) if (status[k] !== undefined) doc[k] = status[k];
  }
  return doc;
}

/** Takes `shard`'s resources out of `status` and `memory` (mutates both): it is not held. */
function dropShard(shard: string, status: ControllerStatus, memory: StepMemory): void {
  const other = (key: string) => shardOfKey(key) !== shard;
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

/**
 * Puts `shard`'s saved document into `status` and `memory` in place of what they held of it
 * (mutates both). The source's fields only fill a replica that has not run yet: its own are
 * newer. False for no document, or one of another version (the first run rebuilds it).
 */
function restoreShard(
  shard: string,
  doc: StoredJson | undefined,
  status: ControllerStatus,
  memory: StepMemory,
): boolean {
  if (!doc || doc.version !== VERSION) return false;
  dropShard(shard, status, memory);
  const list = <T>(v: unknown) => (Array.isArray(v) ? (v as T[]) : []);
  status.conditions = [
    ...status.conditions,
    ...list<ControllerStatus['conditions'][number]>(doc.conditions),
  ];
  status.drift = [...status.drift, ...list<string>(doc.drift)];
  status.inventory = [...status.inventory, ...list<string>(doc.inventory)];
  const prune = doc.blockedPrune as BlockedPrune | undefined;
  if (prune) {
    const keys = [...(status.blockedPrune?.keys ?? []), ...prune.keys];
    status.blockedPrune = { ...(status.blockedPrune ?? prune), count: keys.length, keys };
  }
  const approved = list<string>(doc.approvedDeletes);
  if (approved.length > 0)
    memory.approvedDeletes = [...(memory.approvedDeletes ?? []), ...approved];
  if (shard === GLOBAL_SHARD && status.lastRunAt === undefined) {
    const target = status as unknown as Record<string, unknown>;
    for (const k of SOURCE_FIELDS) if (doc[k] !== undefined) target[k] = doc[k];
    // a suspension saved before the fleet's intent had a document of its own (`intent.ts`)
    if (doc.suspendedByApi === true) {
      memory.suspended = true;
      status.suspended = true;
    }
  }
  return true;
}

/**
 * A sharded replica's status memory (I/O through the coordinator): each shard it takes brings
 * the document its previous holder saved, and each save writes one document per held shard,
 * under that shard's lock epoch. A restored shard's part is put back after every run until a
 * run of this replica covered it (a run's record replaces the per-resource lists wholesale).
 */
export class ShardStatusBook {
  /** Held shards whose part of the status is still their previous holder's document. */
  readonly #restored = new Map<string, StoredJson>();
  /** What this replica last wrote per shard: an unchanged document is not written again. */
  readonly #written = new WrittenDocs();
  /** The notifications' memory, saved and restored per shard; none without notifications. */
  alerts: AlertBook | undefined;

  constructor(
    private readonly d: {
      readonly coordinator: ShardCoordinator;
      readonly status: ControllerStatus;
      readonly memory: StepMemory;
      readonly logger: Logger;
    },
  ) {}

  /**
   * `shard` was taken: its saved document joins the status (I/O). A document that cannot be
   * read is logged and left out: the shard is held, and the first run rebuilds its status.
   */
  async taken(shard: string): Promise<void> {
    this.#written.forget(shard); // its last holder may have written since
    let doc: StoredJson | undefined;
    try {
      doc = await this.d.coordinator.status(shard);
    } catch (err) {
      this.d.logger.warn({ event: 'status-restore-error', shard }, String(err));
      return;
    }
    if (doc && restoreShard(shard, doc, this.d.status, this.d.memory)) {
      this.#restored.set(shard, doc);
      // the alerts its previous holder sent about it are not sent again
      if (doc.alerts) this.alerts?.merge(doc.alerts);
      this.d.logger.info({ event: 'status-restored', shard }, `status of ${shard} restored`);
    }
  }

  /** `shard` was given up: its part leaves the status. */
  released(shard: string): void {
    this.#restored.delete(shard);
    this.#written.forget(shard);
    dropShard(shard, this.d.status, this.d.memory);
  }

  /** A run of this replica reconciled `shards`: their part of the status is its own now. */
  covered(shards: Iterable<string>): void {
    for (const s of shards) this.#restored.delete(s);
  }

  /** The loop's `persist` port: every held shard's document, then the run (I/O). */
  persistence(state: Pick<StateStore, 'appendRun'>): (run: StoredRun | undefined) => Promise<void> {
    return async (run) => {
      const { coordinator, status, memory, logger } = this.d;
      const held = coordinator.held();
      for (const [s, doc] of this.#restored) {
        if (held.has(s)) restoreShard(s, doc, status, memory);
      }
      const alerts = this.alerts?.memory();
      for (const shard of held.keys()) {
        const doc = shardDocument(shard, status, memory, alerts);
        if (!this.#written.changed(shard, doc)) continue;
        this.#written.forget(shard);
        try {
          await coordinator.putStatus(shard, doc);
          this.#written.wrote(shard, doc);
        } catch (err) {
          // lost since: the new holder saves it; the other shards are still ours to save
          if (!(err instanceof PlatctlError && err.code === 'locked')) throw err;
          logger.warn({ event: 'status-save-refused', shard }, err.message);
        }
      }
      if (run) await state.appendRun(run.runId, run as unknown as StoredJson, HISTORY_SIZE);
    };
  }
}
