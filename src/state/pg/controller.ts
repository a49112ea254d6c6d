import type pg from 'pg';
import type { StateStore, StoredJson } from '../types.js';

type ControllerMethods = Pick<
  StateStore,
  | 'controllerStatus'
  | 'putControllerStatus'
  | 'controllerIntent'
  | 'putControllerIntent'
  | 'appendRun'
  | 'runs'
>;

/** A fenced single-statement write, as the store sends every write (see `fencedWrite`). */
type Write = (sql: string, params: unknown[]) => Promise<void>;

/**
 * The controller's memory in the PostgreSQL store (I/O): its status and intent documents (rows of
 * `controller_status`) and a bounded run history (migration 2). Writes are fenced like every other write of the store.
 */
export function pgControllerMethods(pool: pg.Pool, write: Write): ControllerMethods {
  const read = async (name: string) => {
    const { rows } = await pool.query<{ doc: StoredJson }>(
      'SELECT doc FROM controller_status WHERE name = $1',
      [name],
    );
    return rows[0]?.doc;
  };
  const put = (name: string, doc: StoredJson) =>
    write(
      `INSERT INTO controller_status (name, doc) SELECT $3, $4::json FROM fence
       ON CONFLICT (name) DO UPDATE SET doc = excluded.doc`,
      [name, JSON.stringify(doc)],
    );
  return {
    controllerStatus: () => read('status'),
    putControllerStatus: (doc) => put('status', doc),
    controllerIntent: () => read('intent'),
    putControllerIntent: (doc) => put('intent', doc),
    appendRun: async (runId, doc, keep) => {
      if (!(Number.isInteger(keep) && keep > 0)) {
        throw new TypeError(`keep must be a positive integer, got ${keep}`);
      }
      await write(
        `INSERT INTO controller_runs (run_id, doc) SELECT $3, $4::json FROM fence
         ON CONFLICT (run_id) DO UPDATE SET doc = excluded.doc`,
        [runId, JSON.stringify(doc)],
      );
      await write(
        `DELETE FROM controller_runs WHERE EXISTS (SELECT 1 FROM fence)
           AND seq <= (SELECT max(seq) FROM controller_runs) - $3::bigint`,
        [keep],
      );
    },
    runs: async (limit) => {
      const { rows } = await pool.query<{ doc: StoredJson }>(
        'SELECT doc FROM controller_runs ORDER BY seq DESC LIMIT $1',
        [Math.max(0, Math.floor(limit))],
      );
      return rows.map((r) => r.doc);
    },
  };
}
