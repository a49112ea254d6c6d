import type pg from 'pg';
import { PlatctlError } from '../../core/errors.js';
import { GLOBAL_SHARD } from '../shards.js';
import type { StoredJson } from '../types.js';
import type { Fence } from './lease.js';
import { fencedWrite } from './write.js';

/** The `controller_status` row of `shard`'s status document (the unsharded leader's is `status`). */
const rowOf = (shard: string) => `shard/${shard}`;

/**
 * The status documents of the shards (I/O on `pool`): one `controller_status` row per shard,
 * so replicas that split the projects never overwrite each other's status; a replica that
 * takes a shard reads the document its previous holder left.
 */
export function shardStatusMethods(pool: pg.Pool, held: () => ReadonlyMap<string, Fence>) {
  return {
    /** The document `shard`'s holders last saved; undefined when none was. */
    async status(shard: string): Promise<StoredJson | undefined> {
      const { rows } = await pool.query<{ doc: StoredJson }>(
        'SELECT doc FROM controller_status WHERE name = $1',
        [rowOf(shard)],
      );
      return rows[0]?.doc;
    },
    /**
     * Saves `shard`'s document under the epoch of its lock: refused (`locked`) when this
     * replica does not hold the shard, or lost it since.
     */
    async putStatus(shard: string, doc: StoredJson): Promise<void> {
      const fence = held().get(shard);
      if (!fence) {
        throw new PlatctlError(
          'locked',
          `status of shard ${shard} refused: this replica does not hold it`,
        );
      }
      await put(fence, rowOf(shard), doc);
    },
    /** The fleet's intent document (a suspension of every replica); undefined before any. */
    async intent(): Promise<StoredJson | undefined> {
      const { rows } = await pool.query<{ doc: StoredJson }>(
        "SELECT doc FROM controller_status WHERE name = 'intent'",
      );
      return rows[0]?.doc;
    },
    /**
     * Saves the fleet's intent document under the epoch of the `global` shard's lock: one
     * replica writes it at a time, refused (`locked`) on any replica that does not hold `global`.
     */
    async putIntent(doc: StoredJson): Promise<void> {
      const fence = held().get(GLOBAL_SHARD);
      if (!fence) {
        throw new PlatctlError(
          'locked',
          'the fleet-wide intent is written by the replica holding the global shard; this one does not',
        );
      }
      await put(fence, 'intent', doc);
    },
  };

  function put(fence: Fence, name: string, doc: StoredJson): Promise<void> {
    return fencedWrite(
      pool,
      fence,
      `INSERT INTO controller_status (name, doc) SELECT $3, $4::json FROM fence
       ON CONFLICT (name) DO UPDATE SET doc = excluded.doc`,
      [name, JSON.stringify(doc)],
    );
  }
}
