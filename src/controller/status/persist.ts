import type { StateStore, StoredJson } from '../../state/types.js';
import type { StoredRun } from './history.js';
import { HISTORY_SIZE } from './history.js';
import type { ControllerStatus, StepMemory } from './status.js';

/** Fields about the source, the same for every shard (sharded: the `global` shard saves them). */
export const SOURCE_FIELDS = [
  'fetchedRevision',
  'lastAttemptedRevision',
  'lastAppliedRevision',
  'lastAppliedAt',
  'lastGoodRevision',
  'rejectedRevisions',
  'rejected',
  'revisions',
  'sourceReady',
  'lastDiagnostics',
  'lastResult',
  'lastRunAt',
  'lastError',
] as const satisfies readonly (keyof ControllerStatus)[];

/** The status fields that survive a restart (the rest is recomputed by the first run). */
const KEPT = [
  ...SOURCE_FIELDS,
  'conditions',
  'blockedPrune',
  'heldPolicy',
  'windowHolds',
  'heldUntil',
  'drift',
  'inventory',
] as const satisfies readonly (keyof ControllerStatus)[];

const VERSION = 1;

/**
 * The JSON document saved for `status` (pure). What people asked (a suspension, approvals) is
 * not in it: that is the intent document's (`intent.ts`).
 */
function statusDocument(status: ControllerStatus, alerts: StoredJson | undefined): StoredJson {
  const doc: Record<string, unknown> = { version: VERSION };
  for (const k of KEPT) if (status[k] !== undefined) doc[k] = status[k];
  if (alerts) doc.alerts = alerts;
  return doc;
}

/**
 * Puts a saved document back into `status` and `memory` (mutates both). A document of another
 * version is ignored: the first run rebuilds what it held. A suspension or approval found in it
 * was saved before intent had a document of its own: it fills memory until the intent document
 * exists (the first save writes it there).
 */
export function restoreStatus(
  doc: StoredJson | undefined,
  status: ControllerStatus,
  memory: StepMemory,
): boolean {
  if (!doc || doc.version !== VERSION) return false;
  const target = status as unknown as Record<string, unknown>;
  for (const k of KEPT) if (doc[k] !== undefined) target[k] = doc[k];
  if (doc.suspendedByApi === true) {
    memory.suspended = true;
    status.suspended = true;
  }
  if (Array.isArray(doc.approvedDeletes)) memory.approvedDeletes = doc.approvedDeletes as string[];
  return true;
}

/**
 * The loop's `persist` port on a state store: the status document, then the run (I/O). The
 * document also keeps what the notifications remember of the alerts already sent (`alerts`,
 * asked at each save; opaque here), so the next leader re-sends none.
 */
export function statePersistence(
  state: Pick<StateStore, 'putControllerStatus' | 'appendRun'>,
  status: ControllerStatus,
  alerts: () => StoredJson | undefined = () => undefined,
): (run: StoredRun | undefined) => Promise<void> {
  return async (run) => {
    await state.putControllerStatus(statusDocument(status, alerts()));
    if (run) await state.appendRun(run.runId, run as unknown as StoredJson, HISTORY_SIZE);
  };
}
