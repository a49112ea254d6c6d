import type { PowerRequest, PowerRequests } from '../../reconcile/power-requests.js';
import type { StoredJson } from '../../state/types.js';
import type { StepMemory } from './status.js';

/**
 * Where the operator's intent is kept (I/O): one document in the state store. `write` is fenced
 * by the lease of whoever may write it (the leader; sharded, the holder of the `global` shard)
 * and rejects with `locked` on any other replica.
 */
export interface IntentPort {
  read(): Promise<StoredJson | undefined>;
  write(doc: StoredJson): Promise<void>;
  /**
   * True when approved deletions are kept in this document; false where each shard keeps its
   * own with its status (sharded replicas), and only the suspension is fleet-wide.
   */
  readonly approvals: boolean;
}

const VERSION = 1;

/** The power requests of a stored document, anything malformed left out (pure). */
function powerRequestsOf(stored: unknown): PowerRequests | undefined {
  if (!stored || typeof stored !== 'object' || Array.isArray(stored)) return undefined;
  const out: Record<string, PowerRequest> = {};
  for (const [key, r] of Object.entries(stored as Record<string, Record<string, unknown>>)) {
    if (!r || typeof r.at !== 'string') continue;
    out[key] = {
      at: r.at,
      ...(r.state === 'on' || r.state === 'off' ? { state: r.state } : {}),
      ...(typeof r.reset === 'string' ? { reset: r.reset } : {}),
    };
  }
  return out;
}

/** What an operator asked, as `memory` holds it (pure). */
function intentOf(memory: StepMemory, approvals: boolean): StoredJson {
  return {
    version: VERSION,
    suspended: memory.suspended === true,
    ...(approvals && memory.approvedDeletes
      ? { approvedDeletes: [...memory.approvedDeletes] }
      : {}),
    ...(memory.approvedPolicies ? { approvedPolicies: [...memory.approvedPolicies] } : {}),
    ...(memory.powerRequests ? { powerRequests: { ...memory.powerRequests } } : {}),
  };
}

/**
 * What people asked of the controller through its control API — a suspension, deletions
 * approved past the limit — kept in the state store rather than in one process: the replica
 * that leads reads it before each run ({@link refresh}), so a suspension or an approval made on
 * one leader holds on the next, and it writes it under its fence ({@link set}, {@link save}),
 * so a replica that no longer leads cannot change or erase it. `memory` is the loop's.
 */
export class IntentBook {
  readonly #port: IntentPort;
  readonly #memory: StepMemory;
  /** The document as last read or written: a save that would change nothing is skipped. */
  #last: string | undefined;
  /**
   * The book's reads and writes, one at a time in the order asked: a run's save still being
   * written when `ctl suspend` wrote could land after it and undo the suspension, and a refresh
   * reading when it was made could put the old value back in memory.
   */
  #queue: Promise<unknown> = Promise.resolve();

  #exclusive<T>(body: () => Promise<T>): Promise<T> {
    const turn = this.#queue.then(body);
    this.#queue = turn.catch(() => undefined);
    return turn;
  }

  constructor(port: IntentPort, memory: StepMemory) {
    this.#port = port;
    this.#memory = memory;
  }

  /**
   * Puts the stored intent into the loop's memory (I/O). No document yet (nobody asked since
   * the store was made, or a status saved before intent had its own document) leaves memory as
   * it is. Rejects when the store cannot be read: a run must not guess what was asked.
   */
  refresh(): Promise<void> {
    return this.#exclusive(() => this.#refresh());
  }

  async #refresh(): Promise<void> {
    const doc = await this.#port.read();
    if (!doc || doc.version !== VERSION) return;
    this.#last = JSON.stringify(doc);
    this.#memory.suspended = doc.suspended === true;
    const policies = doc.approvedPolicies;
    this.#memory.approvedPolicies = Array.isArray(policies)
      ? policies.filter((k): k is string => typeof k === 'string')
      : undefined;
    this.#memory.powerRequests = powerRequestsOf(doc.powerRequests);
    if (!this.#port.approvals) return;
    const approved = doc.approvedDeletes;
    this.#memory.approvedDeletes = Array.isArray(approved)
      ? approved.filter((k): k is string => typeof k === 'string')
      : undefined;
  }

  /**
   * Records `change` in the store, then in memory (I/O): a write refused (`locked`: this
   * replica no longer leads) changes neither.
   */
  set(
    change: Pick<
      StepMemory,
      'suspended' | 'approvedDeletes' | 'approvedPolicies' | 'powerRequests'
    >,
  ): Promise<void> {
    return this.#exclusive(() => this.#set(change));
  }

  async #set(
    change: Pick<
      StepMemory,
      'suspended' | 'approvedDeletes' | 'approvedPolicies' | 'powerRequests'
    >,
  ): Promise<void> {
    // approved deletions kept per shard are the status's to save, not the fleet's document;
    // approved policy rules are about a whole revision, power requests about any project: the
    // fleet's
    const fleet =
      'suspended' in change || 'approvedPolicies' in change || 'powerRequests' in change;
    if (fleet || this.#port.approvals) {
      const doc = intentOf({ ...this.#memory, ...change }, this.#port.approvals);
      await this.#port.write(doc);
      this.#last = JSON.stringify(doc);
    }
    Object.assign(this.#memory, change);
  }

  /**
   * After a run (I/O): writes the approvals it used up (memory's differ from the stored ones).
   * The suspension is taken from the store, not memory: only {@link set} changes it, so a run
   * that ended after another leader's change cannot undo it. With no document yet, memory's
   * intent becomes the first (a suspension kept in a status saved before intent had its own).
   */
  save(): Promise<void> {
    return this.#exclusive(() => this.#save());
  }

  async #save(): Promise<void> {
    const mine = intentOf(this.#memory, this.#port.approvals);
    if (JSON.stringify(mine) === this.#last) return;
    const stored = await this.#port.read();
    const doc =
      stored?.version === VERSION
        ? intentOf({ ...this.#memory, suspended: stored.suspended === true }, this.#port.approvals)
        : mine;
    const text = JSON.stringify(doc);
    if (text !== JSON.stringify(stored)) await this.#port.write(doc);
    this.#last = text;
  }
}
