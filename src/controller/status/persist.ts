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

/** Fields that hold a line per resource: compared item by item, not serialised. */
const PER_RESOURCE = ['conditions', 'inventory', 'drift'] as const;

/**
 * When the last run ended: not a reason on its own to rewrite the document (the run history,
 * appended after every run, says when each one ran).
 */
const RUN_TIMES = new Set<string>(['lastRunAt', 'lastAppliedAt']);

/**
 * What decides whether the document changed (pure): every kept field but the run times, the
 * per-resource lists as the arrays they are (their items are replaced, never edited: conditions
 * are kept as the same objects while unchanged, `conditionsOf`), the rest and the alerts as text.
 */
interface Fingerprint {
  readonly text: string;
  readonly lists: readonly (readonly unknown[] | undefined)[];
}

const PER_RESOURCE_KEYS: ReadonlySet<string> = new Set(PER_RESOURCE);

/** The document's fields but the run times and the per-resource lists, as JSON (pure). */
function restText(doc: StoredJson): string {
  const rest: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(doc)) {
    if (!RUN_TIMES.has(k) && !PER_RESOURCE_KEYS.has(k)) rest[k] = v;
  }
  return JSON.stringify(rest);
}

function fingerprint(doc: StoredJson): Fingerprint {
  return {
    text: restText(doc),
    // copies: the status's own arrays are replaced after each run, but may in principle be edited
    lists: PER_RESOURCE.map((k) =>
      Array.isArray(doc[k]) ? [...(doc[k] as unknown[])] : undefined,
    ),
  };
}

function unchanged(was: Fingerprint, doc: StoredJson): boolean {
  for (const [i, k] of PER_RESOURCE.entries()) {
    const before = was.lists[i];
    const now = doc[k];
    if (!before || !Array.isArray(now)) {
      if (before !== undefined || now !== undefined) return false;
      continue;
    }
    if (before.length !== now.length) return false;
    for (let j = 0; j < now.length; j++) if (before[j] !== now[j]) return false;
  }
  return was.text === restText(doc);
}

/**
 * The documents this replica wrote, by name, to write each again only when it changed (pure
 * bookkeeping, no I/O): a name forgotten is written at its next save whatever it holds.
 */
export class WrittenDocs {
  readonly #written = new Map<string, Fingerprint>();

  /** True when `doc` differs from what was last written as `name`, or nothing was. */
  changed(name: string, doc: StoredJson): boolean {
    const was = this.#written.get(name);
    return was === undefined || !unchanged(was, doc);
  }

  /** `doc` is now the stored `name`. */
  wrote(name: string, doc: StoredJson): void {
    this.#written.set(name, fingerprint(doc));
  }

  /** The store's `name` (every name when none is given) may not be what was written here. */
  forget(name?: string): void {
    if (name === undefined) this.#written.clear();
    else this.#written.delete(name);
  }
}

/** {@link statePersistence}'s port, and how to say the store may hold someone else's document. */
export interface StatusSaver {
  (run: StoredRun | undefined): Promise<void>;
  /** The store's document may not be the one last written here (leadership taken up again). */
  forget(): void;
}

/**
 * The loop's `persist` port on a state store: the status document, then the run (I/O). The
 * document also keeps what the notifications remember of the alerts already sent (`alerts`,
 * asked at each save; opaque here), so the next leader re-sends none. The document is rewritten
 * only when it changed since this process last wrote it, apart from the run times (`lastRunAt`,
 * `lastAppliedAt`: then as of the last rewrite): an idle resync of 100,000 resources wrote 100,000
 * conditions again (seconds of serialising) to say when it ran. The run is appended every time.
 */
export function statePersistence(
  state: Pick<StateStore, 'putControllerStatus' | 'appendRun'>,
  status: ControllerStatus,
  alerts: () => StoredJson | undefined = () => undefined,
): StatusSaver {
  const written = new WrittenDocs();
  const save = async (run: StoredRun | undefined) => {
    const doc = statusDocument(status, alerts());
    if (written.changed('status', doc)) {
      written.forget('status'); // a write that fails leaves the next save to write
      await state.putControllerStatus(doc);
      written.wrote('status', doc);
    }
    if (run) await state.appendRun(run.runId, run as unknown as StoredJson, HISTORY_SIZE);
  };
  return Object.assign(save, { forget: () => written.forget() });
}
