import type { ActionOutcome } from '../../model/action.js';
import type { Manifest } from '../../model/manifest.js';
import {
  type InventoryEntry,
  type PendingOperation,
  pruneOutcomesSql,
  runsKept,
  type StateStore,
  type StateWriter,
} from '../types.js';

/** The server's clock in epoch milliseconds, as an SQL expression. */
const NOW_MS = '(extract(epoch from clock_timestamp()) * 1000)::bigint';

/** Prunes the outcomes to the newest runs (`$3`), fenced: see {@link StateStore.pruneOutcomes}. */
export function pruneOutcomesOn(
  run: (sql: string, params: unknown[]) => Promise<void>,
): (keepRuns: number) => Promise<void> {
  return (keepRuns) =>
    run(pruneOutcomesSql('$3::int', 'EXISTS (SELECT 1 FROM fence)'), [runsKept(keepRuns)]);
}

/** The single-write methods, each one fenced statement sent through `run` (the pool, or a transaction's client). */
export function writerOn(run: (sql: string, params: unknown[]) => Promise<void>): StateWriter {
  return {
    putInventory: (e: InventoryEntry) =>
      run(
        `INSERT INTO inventory (key, kind, ref, id, created_by_platctl, protected)
         SELECT $3, $4, $5::json, $6, $7::boolean, $8::boolean FROM fence
         ON CONFLICT (key) DO UPDATE SET kind = excluded.kind, ref = excluded.ref, id = excluded.id,
           created_by_platctl = excluded.created_by_platctl, protected = excluded.protected`,
        [e.key, e.kind, JSON.stringify(e.ref), e.id ?? null, e.createdByPlatctl, e.protected],
      ),
    removeInventory: (key: string) =>
      run('DELETE FROM inventory WHERE key = $3 AND EXISTS (SELECT 1 FROM fence)', [key]),
    putLastApplied: (key: string, manifest: Manifest) =>
      run(
        `INSERT INTO last_applied (key, manifest) SELECT $3, $4::json FROM fence
         ON CONFLICT (key) DO UPDATE SET manifest = excluded.manifest`,
        [key, JSON.stringify(manifest)],
      ),
    removeLastApplied: (key: string) =>
      run('DELETE FROM last_applied WHERE key = $3 AND EXISTS (SELECT 1 FROM fence)', [key]),
    beginPending: (op: PendingOperation) =>
      run(
        `INSERT INTO pending (key, action_id, ref, started_at)
         SELECT $3, $4, $5::json, $6::bigint FROM fence
         ON CONFLICT (key) DO UPDATE SET action_id = excluded.action_id, ref = excluded.ref,
           started_at = excluded.started_at`,
        [op.key, op.actionId, JSON.stringify(op.ref), op.startedAt],
      ),
    clearPending: (key: string) =>
      run('DELETE FROM pending WHERE key = $3 AND EXISTS (SELECT 1 FROM fence)', [key]),
    recordOutcome: (runId: string, actionId: string, key: string, outcome: ActionOutcome) =>
      run(
        `INSERT INTO outcomes (run_id, action_id, key, outcome, at)
         SELECT $3, $4, $5, $6::json, ${NOW_MS} FROM fence
         ON CONFLICT (run_id, action_id) DO UPDATE SET key = excluded.key, outcome = excluded.outcome,
           at = excluded.at`,
        [runId, actionId, key, JSON.stringify(outcome)],
      ),
  };
}
