import { PlatctlError } from '../../core/errors.js';
import type { StateStore } from '../../state/types.js';
import type { IntentPort } from '../status/intent.js';

/**
 * What a control call may change: `fleet`, what every replica obeys (a suspension); `replica`,
 * this replica's own work (a run now, an approval or backoff of resources it reconciles).
 */
export type ControlScope = 'fleet' | 'replica';

/** Another replica acts on a scope instead of this one: who, and why, for people. */
export interface Elsewhere {
  /** The replica that may act (`pid 7 on pod-b since ... (holder ...)`), or why none is known. */
  readonly leader: string;
  readonly message: string;
}

/** Says who acts on a scope when this replica may not; undefined when it may (I/O allowed). */
export type ElsewherePort = (scope: ControlScope) => Promise<Elsewhere | undefined>;

/**
 * One leader for everything (no sharding): a replica that does not lead acts on no scope, and
 * names the lease's holder as its last lease poll saw it (pure).
 */
export function standbyElsewhere(
  leads: () => boolean,
  holder: () => string | undefined,
): ElsewherePort {
  return async () => {
    if (leads()) return undefined;
    const leader = holder() ?? 'none: no replica holds the lease now (retry shortly)';
    return { leader, message: `this replica stands by; ask the leader: ${leader}` };
  };
}

/**
 * The intent port of the unsharded controller on its state store: the leader's writes carry its
 * lease epoch, and a replica that does not lead (its lease lost, or never held) writes nothing
 * — without a held lease the store would not fence the write at all.
 */
export function leaderIntent(
  state: Pick<StateStore, 'controllerIntent' | 'putControllerIntent'>,
  leads: () => boolean,
): IntentPort {
  return {
    approvals: true,
    read: () => state.controllerIntent(),
    write: async (doc) => {
      if (!leads()) {
        throw new PlatctlError('locked', 'intent refused: this replica does not lead any more');
      }
      await state.putControllerIntent(doc);
    },
  };
}
