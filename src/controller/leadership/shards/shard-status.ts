import { PlatctlError } from '../../../core/errors.js';
import type { Logger } from '../../../core/logger.js';
import type { ShardCoordinator, StateStore, StoredJson } from '../../../state/index.js';
import type { AlertMemory } from '../../notify/memory.js';
import { HISTORY_SIZE, type StoredRun } from '../../status/history.js';
import { WrittenDocs } from '../../status/persist.js';
import type { ControllerStatus, StepMemory } from '../../status/status.js';
import { shardDocuments } from './shard-docs.js';
import { dropShards, restoreShards } from './shard-restore.js';

/** What the notifications remember, as the book saves and restores it per shard. */
export interface AlertBook {
  memory(): AlertMemory;
  /** Adds a shard's saved memory to its own (a shard taken over). */
  merge(doc: unknown): void;
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
   * `shards` were taken: their saved documents join the status (I/O), in one pass over it. A
   * document that cannot be read is logged and left out: the shard is held, and the first run
   * rebuilds its status.
   */
  async taken(...shards: string[]): Promise<void> {
    const docs: [string, StoredJson | undefined][] = [];
    for (const shard of shards) {
      this.#written.forget(shard); // its last holder may have written since
      try {
        docs.push([shard, await this.d.coordinator.status(shard)]);
      } catch (err) {
        this.d.logger.warn({ event: 'status-restore-error', shard }, String(err));
      }
    }
    const restored = restoreShards(docs, this.d.status, this.d.memory);
    for (const [shard, doc] of docs) {
      if (!doc || !restored.has(shard)) continue;
      this.#restored.set(shard, doc);
      // the alerts its previous holder sent about it are not sent again
      if (doc.alerts) this.alerts?.merge(doc.alerts);
      this.d.logger.info({ event: 'status-restored', shard }, `status of ${shard} restored`);
    }
  }

  /** `shards` were given up: their part leaves the status. */
  released(...shards: string[]): void {
    for (const shard of shards) {
      this.#restored.delete(shard);
      this.#written.forget(shard);
    }
    dropShards(new Set(shards), this.d.status, this.d.memory);
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
      restoreShards(
        [...this.#restored].filter(([s]) => held.has(s)),
        status,
        memory,
      );
      const alerts = this.alerts?.memory();
      for (const [shard, doc] of shardDocuments(held.keys(), status, memory, alerts)) {
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
