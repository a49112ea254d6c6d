import type { Clock } from '../../../core/clock.js';
import { PlatctlError } from '../../../core/errors.js';
import type { Logger } from '../../../core/logger.js';
import { GatedLimiter } from '../../../providers/client/gated-limiter.js';
import {
  isPostgresUrl,
  type LeaseHolder,
  openShardCoordinator,
  redactUrl,
  type StateStore,
} from '../../../state/index.js';
import type { IntentPort } from '../../status/intent.js';
import type { ControllerStatus, StepMemory } from '../../status/status.js';
import type { Elsewhere, ElsewherePort } from '../elsewhere.js';
import { budgetGate } from './budget.js';
import { fleetIntent, pruneElsewhere, shardElsewhere } from './fleet-intent.js';
import { ShardReplica } from './replica.js';

/** How a controller splits its work with other replicas. */
export type ShardBy = 'project';

/** A sharded replica wired for the controller: its seat, and the limiter for its API client. */
export interface ShardWiring {
  readonly replica: ShardReplica;
  /** The fleet's intent (a suspension of every replica), the `global` shard holder's to write. */
  readonly intent: IntentPort;
  /** Who acts on a control call's scope instead of this replica (see `fleet-intent.ts`). */
  readonly elsewhere: ElsewherePort;
  /** Which other replica holds a run's prune, for an approval sent here. */
  readonly pruneElsewhere: (runId: string) => Promise<Elsewhere | undefined>;
  /** Paces requests by the budget the replicas share; undefined when the rate is unlimited. */
  readonly limiter?: GatedLimiter;
  /** Sets what a gained shard wakes (the loop, made after the wiring). */
  onWake(wake: () => void): void;
}

/**
 * Opens this replica's seat among the sharded replicas of the PostgreSQL state at `statePath`
 * (I/O). A SQLite state cannot be shared by replicas: a clear `usage` error, before anything
 * starts.
 */
export async function wireShards(options: {
  readonly shardBy: ShardBy;
  readonly statePath: string;
  readonly state: StateStore;
  readonly holder: LeaseHolder;
  readonly ttlMs: number;
  readonly pollMs: number;
  readonly rps?: number;
  readonly concurrency?: number;
  readonly clock: Clock;
  readonly logger: Logger;
  readonly status: ControllerStatus;
  readonly memory: StepMemory;
}): Promise<ShardWiring> {
  assertShardable(options.shardBy, options.statePath);
  const coordinator = await openShardCoordinator(options.statePath, {
    replica: options.holder,
    ttlMs: options.ttlMs,
    clock: options.clock,
  });
  let wake = () => {};
  const replica = new ShardReplica({
    coordinator,
    state: options.state,
    id: options.holder.id,
    clock: options.clock,
    logger: options.logger,
    ...(options.rps !== undefined ? { rps: options.rps } : {}),
    settleMs: 2 * options.pollMs,
    wake: () => wake(),
    status: options.status,
    memory: options.memory,
  });
  const limiter =
    options.rps === undefined
      ? undefined
      : new GatedLimiter({
          gate: budgetGate({
            coordinator,
            rps: options.rps,
            clock: options.clock,
            logger: options.logger,
          }),
          ...(options.concurrency !== undefined ? { concurrency: options.concurrency } : {}),
        });
  return {
    replica,
    intent: fleetIntent(coordinator),
    elsewhere: shardElsewhere(coordinator),
    pruneElsewhere: pruneElsewhere(coordinator),
    ...(limiter ? { limiter } : {}),
    onWake: (w) => {
      wake = w;
    },
  };
}

/** Throws the `usage` error for `--shard-by` on a state replicas cannot share. Pure. */
export function assertShardable(shardBy: string, statePath: string): void {
  if (shardBy !== 'project') {
    throw new PlatctlError('usage', `--shard-by ${shardBy}: the only way to shard is "project"`);
  }
  if (!isPostgresUrl(statePath)) {
    throw new PlatctlError(
      'usage',
      `--shard-by project needs a PostgreSQL state (--state postgres://... or PLATCTL_STATE_URL): ` +
        `${redactUrl(statePath)} is a SQLite file, which one replica holds at a time`,
    );
  }
}
