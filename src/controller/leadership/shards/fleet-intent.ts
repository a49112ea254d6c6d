import { describeHolder, GLOBAL_SHARD, type ShardCoordinator } from '../../../state/index.js';
import type { IntentPort } from '../../status/intent.js';
import type { Elsewhere, ElsewherePort } from '../elsewhere.js';

/**
 * The fleet's intent (a suspension of every replica) as a sharded replica reads and writes it:
 * in the state store, written under the `global` shard's epoch by whichever replica holds it
 * (`locked` on the others); approved deletions stay with each shard's status.
 */
export function fleetIntent(coordinator: ShardCoordinator): IntentPort {
  return {
    approvals: false,
    read: () => coordinator.intent(),
    write: (doc) => coordinator.putIntent(doc),
  };
}

/**
 * Who acts on a scope instead of this sharded replica (I/O: reads the registry): the fleet's
 * intent is the `global` shard holder's; a replica's own work is its own once it joined.
 */
export function shardElsewhere(coordinator: ShardCoordinator): ElsewherePort {
  return async (scope) => {
    if (coordinator.joinedSince() === undefined) {
      const leader = 'none known: this replica has not joined the others yet';
      return { leader, message: `this replica stands by: ${leader}` };
    }
    if (scope === 'replica' || coordinator.held().has(GLOBAL_SHARD)) return undefined;
    const owner = (await coordinator.owners()).find((o) => o.shard === GLOBAL_SHARD);
    const member = owner && (await coordinator.members()).find((m) => m.id === owner.replicaId);
    const leader = member
      ? describeHolder(member)
      : owner
        ? `holder ${owner.replicaId}`
        : 'none: no replica holds the global shard yet (retry shortly)';
    return {
      leader,
      message: `this replica does not hold the global shard, whose holder keeps what every replica obeys: ${leader}`,
    };
  };
}

/**
 * Which other replica holds the prune of run `runId` (I/O: the saved status of the shards this
 * replica does not hold), so an approval sent to the wrong replica names the right one;
 * undefined when none does.
 */
export function pruneElsewhere(
  coordinator: ShardCoordinator,
): (runId: string) => Promise<Elsewhere | undefined> {
  return async (runId) => {
    const held = coordinator.held();
    for (const owner of await coordinator.owners()) {
      if (held.has(owner.shard)) continue;
      const prune = (await coordinator.status(owner.shard))?.blockedPrune as
        | { readonly runId?: unknown }
        | undefined;
      if (prune?.runId !== runId) continue;
      const member = (await coordinator.members()).find((m) => m.id === owner.replicaId);
      const leader = member ? describeHolder(member) : `holder ${owner.replicaId}`;
      return {
        leader,
        message: `the prune of run ${runId} is held by the replica holding ${owner.shard}: ${leader}`,
      };
    }
    return undefined;
  };
}
