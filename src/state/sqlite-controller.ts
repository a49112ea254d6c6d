import type Database from 'better-sqlite3';
import type { StateStore, StoredJson } from './types.js';

const SCHEMA = `
CREATE TABLE IF NOT EXISTS controller_status (name TEXT PRIMARY KEY, doc TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS controller_runs (
  seq INTEGER PRIMARY KEY AUTOINCREMENT, run_id TEXT NOT NULL UNIQUE, doc TEXT NOT NULL);
`;

type ControllerMethods = Pick<
  StateStore,
  | 'controllerStatus'
  | 'putControllerStatus'
  | 'controllerIntent'
  | 'putControllerIntent'
  | 'appendRun'
  | 'runs'
>;

/**
 * The controller's memory in the SQLite store (I/O): its status and intent documents and a
 * bounded run history, all JSON. Creates its tables on first use of `db`.
 */
export function sqliteControllerMethods(db: Database.Database): ControllerMethods {
  db.exec(SCHEMA);
  const q = {
    doc: db.prepare('SELECT doc FROM controller_status WHERE name = ?'),
    putDoc: db.prepare(
      'INSERT INTO controller_status (name, doc) VALUES (?, ?) ON CONFLICT(name) DO UPDATE SET doc = excluded.doc',
    ),
    append: db.prepare(
      'INSERT INTO controller_runs (run_id, doc) VALUES (?, ?) ON CONFLICT(run_id) DO UPDATE SET doc = excluded.doc',
    ),
    trim: db.prepare(
      'DELETE FROM controller_runs WHERE seq <= (SELECT MAX(seq) FROM controller_runs) - ?',
    ),
    runs: db.prepare('SELECT doc FROM controller_runs ORDER BY seq DESC LIMIT ?'),
  };
  const append = db.transaction((runId: string, doc: string, keep: number) => {
    q.append.run(runId, doc);
    q.trim.run(keep);
  });
  const read = (name: string) => {
    const row = q.doc.get(name) as { doc: string } | undefined;
    return row ? (JSON.parse(row.doc) as StoredJson) : undefined;
  };
  return {
    controllerStatus: async () => read('status'),
    putControllerStatus: async (doc) => void q.putDoc.run('status', JSON.stringify(doc)),
    controllerIntent: async () => read('intent'),
    putControllerIntent: async (doc) => void q.putDoc.run('intent', JSON.stringify(doc)),
    appendRun: async (runId, doc, keep) => {
      if (!(Number.isInteger(keep) && keep > 0)) {
        throw new TypeError(`keep must be a positive integer, got ${keep}`);
      }
      append(runId, JSON.stringify(doc), keep);
    },
    runs: async (limit) =>
      (q.runs.all(Math.max(0, Math.floor(limit))) as { doc: string }[]).map(
        (r) => JSON.parse(r.doc) as StoredJson,
      ),
  };
}
