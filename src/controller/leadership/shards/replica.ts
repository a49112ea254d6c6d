import type { Clock } from '../../../core/clock.js';
import type { Logger } from '../../../core/logger.js';
import type { LoadedManifest } from '../../../model/manifest.js';
import type { LoadPort } from '../../../reconcile/run.js';
import {
  describeHolder,
  type Fence,
  GLOBAL_SHARD,
  type ShardCoordinator,
  type StateStore,
  shardOfKey,
  shardOfResource,
} from '../../../state/index.js';
import type { ReconcileRun } from '../../engine/ports.js';
import type { StoredRun } from '../../status/history.js';
import type { ControllerStatus, StepMemory } from '../../status/status.js';
import type { LeasePort } from '../lease-port.js';
import { assignedTo } from './assign.js';
import { type AlertBook, ShardStatusBook } from './shard-status.js';

const shardOf = (m: LoadedManifest) =>
  shardOfResource({ kind: m.manifest.kind, project: m.manifest.metadata.project });

/** What a sharded replica needs. */
export interface ShardReplicaOptions {
  readonly coordinator: ShardCoordinator;
  /** The whole state store (reads, the controller's status). */
  readonly state: StateStore;
  /** This replica's id in the registry (its lease holder id). */
  readonly id: string;
  readonly clock: Clock;
  readonly logger: Logger;
  /** The replicas' one shared request budget per second; undefined is unlimited. */
  readonly rps?: number;
  /**
   * How long a replica that joined waits before it takes shards: long enough for every other
   * replica to see it (two lease polls), so shards move once rather than back and forth.
   */
  readonly settleMs: number;
  /** Asks the loop for a run now (shards were gained). */
  readonly wake: () => void;
  /** Shown in `/status`; each shard's part is saved and restored with the shard. */
  readonly status: ControllerStatus;
  /** The loop's memory (approved deletions, suspension), saved with the status. */
  readonly memory: StepMemory;
}

/** The engine's run for one set of shards: the loader and store it should use. */
export type ShardedEngine = (ports: { load: LoadPort; state: StateStore }) => ReconcileRun;

/**
 * One controller replica of several that split the projects between them (`--shard-by
 * project`). Its lease port keeps its seat among the replicas and moves shards: every poll it
 * reads the live replicas, gives up (between runs only) the shards rendezvous hashing no longer
 * gives it, and takes the free ones it does give it. Its run reconciles only the shards it
 * holds when the run starts, through a state view fenced per shard.
 */
export class ShardReplica {
  readonly #o: ShardReplicaOptions;
  #members: string[] = [];
  /** The shards there are: those of the last run's manifests and inventory, and `global`. */
  #known = new Set<string>([GLOBAL_SHARD]);
  /** The last {@link assignedTo} answer, and the shards and members it was for. */
  #assignment: { known: Set<string>; members: string; mine: Set<string> } | undefined;
  #running = false;
  #wakeAfterRun = false;
  #queue: Promise<unknown> = Promise.resolve();
  readonly #book: ShardStatusBook;

  constructor(options: ShardReplicaOptions) {
    this.#o = options;
    this.#book = new ShardStatusBook(options);
  }

  /**
   * What the notifications remember is saved with each held shard's status and joins this
   * replica's when it takes a shard over, so no alert is sent twice across a failover.
   */
  rememberAlerts(alerts: AlertBook | undefined): void {
    this.#book.alerts = alerts;
  }

  /** The loop's `persist` port: one status document per held shard, then the run (I/O). */
  persistence(): (run: StoredRun | undefined) => Promise<void> {
    return this.#book.persistence(this.#o.state);
  }

  /** Leader election's port: "held" means joined (possibly owning no shard yet). */
  get lease(): LeasePort {
    return {
      tryAcquire: () => this.#serial(() => this.#tick()),
      holder: async () => {
        const h = await this.#o.state.leaseHolder();
        return h ? describeHolder(h) : undefined;
      },
      release: () => this.#serial(() => this.#o.coordinator.close()),
    };
  }

  /**
   * The loop's run: loads the revision (through `load`), learns its shards and those of the
   * inventory, rebalances, then runs `engine` on the manifests and a store view of the shards
   * held at that moment only.
   */
  run(engine: ShardedEngine, load: LoadPort): ReconcileRun {
    return async (req, signal, hard) => {
      const fences = new Map<string, Fence>();
      const base = this.#o.state;
      const shardLoad: LoadPort = async (input) => {
        const inventory = await base.inventory();
        const loaded = await load(input);
        // a project gone from both git and the inventory is no shard any more (given up below)
        this.#known = new Set([
          GLOBAL_SHARD,
          ...loaded.manifests.map(shardOf),
          ...inventory.map((e) => shardOfKey(e.key)),
        ]);
        // nothing of this run holds a shard yet: this is where shards no longer ours are given up
        await this.#serial(() => this.#rebalance({ release: true, fromRun: true }));
        for (const [s, f] of this.#o.coordinator.held()) fences.set(s, f);
        this.#o.logger.info(
          { event: 'shard-run', runId: req.runId, shards: [...fences.keys()].sort() },
          `reconciling ${fences.size} shard(s)`,
        );
        return { ...loaded, manifests: loaded.manifests.filter((m) => fences.has(shardOf(m))) };
      };
      this.#running = true;
      try {
        // `hard` too: a shutdown past its timeout cuts a sharded run's waits like any other
        return await engine({ load: shardLoad, state: this.#o.coordinator.view(base, fences) })(
          req,
          signal,
          hard,
        );
      } finally {
        this.#book.covered(fences.keys());
        this.#running = false;
        this.#o.logger.info(
          { event: 'shard-run-end', runId: req.runId, shards: [...fences.keys()].sort() },
          'shard run ended',
        );
        if (this.#wakeAfterRun) {
          this.#wakeAfterRun = false;
          this.#o.wake();
        }
      }
    };
  }

  /** One poll: keep the seat, read the replicas, move shards, refresh the status. */
  async #tick(): Promise<boolean> {
    const { coordinator } = this.#o;
    if (!(await coordinator.join())) {
      this.#members = [];
      return false;
    }
    const before = this.#members.join(',');
    this.#members = (await coordinator.members()).map((m) => m.id);
    if (before !== this.#members.join(',')) {
      this.#o.logger.info({ event: 'replicas', replicas: this.#members }, 'replicas changed');
    }
    await this.#rebalance({ release: !this.#running, fromRun: false });
    await this.#refreshStatus();
    return true;
  }

  /**
   * Gives up unassigned shards (when no run uses them) and takes free assigned ones; shards taken
   * outside a run's start ask for a run (after the one going, if any).
   */
  async #rebalance(when: { release: boolean; fromRun: boolean }): Promise<void> {
    const { coordinator, id, logger } = this.#o;
    const assigned = this.#settled() ? this.#assigned(id) : new Set<string>();
    const held = coordinator.held();
    const released: string[] = [];
    if (when.release) {
      try {
        for (const s of held.keys()) {
          if (!assigned.has(s)) {
            await coordinator.release(s);
            released.push(s);
          }
        }
      } finally {
        this.#book.released(...released);
      }
    }
    const taken: string[] = [];
    try {
      for (const s of assigned) {
        if (!held.has(s) && (await coordinator.take(s))) taken.push(s);
      }
    } finally {
      // their documents join the status in one pass, however many were taken
      await this.#book.taken(...taken);
    }
    if (released.length > 0 || taken.length > 0) {
      logger.info({ event: 'shards', taken, released }, 'shards moved');
    }
    if (taken.length > 0 && !when.fromRun) {
      if (this.#running) this.#wakeAfterRun = true;
      else this.#o.wake();
    }
  }

  async #refreshStatus(): Promise<void> {
    const owners = await this.#o.coordinator.owners();
    this.#o.status.shards = {
      by: 'project',
      replica: this.#o.id,
      held: [...this.#o.coordinator.held().keys()].sort(),
      replicas: this.#members.map((id) => ({
        id,
        shards: owners.filter((o) => o.replicaId === id).map((o) => o.shard),
      })),
      ...(this.#o.rps !== undefined ? { rps: this.#o.rps } : {}),
    };
  }

  /**
   * {@link assignedTo} for the current shards and members, computed again only when either
   * changed: every poll asks, and 1,000 shards are 3,000 hashes with three replicas.
   */
  #assigned(id: string): Set<string> {
    const members = this.#members.join('\0');
    const last = this.#assignment;
    if (last && last.known === this.#known && last.members === members) return new Set(last.mine);
    const mine = assignedTo(id, this.#known, this.#members);
    this.#assignment = { known: this.#known, members, mine };
    return new Set(mine);
  }

  /** Joined (on the current lock session: a reconnect is a new seat) at least `settleMs` ago. */
  #settled(): boolean {
    const since = this.#o.coordinator.joinedSince();
    return since !== undefined && this.#o.clock.now() - since >= this.#o.settleMs;
  }

  /** Runs `f` after every earlier coordinator call: one lock session, one call at a time. */
  #serial<T>(f: () => Promise<T>): Promise<T> {
    const next = this.#queue.then(f, f);
    this.#queue = next.catch(() => {});
    return next;
  }
}
