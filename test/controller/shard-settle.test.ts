import { describe, expect, it } from 'vitest';
import { ShardReplica } from '../../src/controller/leadership/shards/replica.js';
import { initialStatus } from '../../src/controller/status/status.js';
import type { Fence, ShardCoordinator, StateStore } from '../../src/state/index.js';
import { memoryLogger } from './helpers/fakes.js';
import { ManualClock } from './helpers/manual-clock.js';

/** A coordinator in memory: one replica alone, whose lock session the test can cut. */
class FakeCoordinator implements ShardCoordinator {
  #seat: number | undefined;
  readonly #held = new Map<string, Fence>();
  constructor(private readonly clock: ManualClock) {}
  /** The lock session ended: the seat and every shard are gone. */
  cut(): void {
    this.#seat = undefined;
    this.#held.clear();
  }
  join = async () => {
    this.#seat ??= this.clock.now();
    return true;
  };
  joinedSince = () => this.#seat;
  members = async () => [{ id: 'a', pid: 1, host: 'test', since: 0 }];
  take = async (shard: string) => {
    this.#held.set(shard, { name: `shard/${shard}`, epoch: 1, alive: () => true });
    return true;
  };
  release = async (shard: string) => {
    this.#held.delete(shard);
  };
  held = () => new Map(this.#held);
  owners = async () => [];
  view = (base: StateStore) => base;
  reserve = async () => ({ slotMs: 0, nowMs: 0 });
  /** Set to make reading a shard's saved status fail (the database answered the lock, then not). */
  statusFails = false;
  status = async () => {
    if (this.statusFails) throw new Error('connection terminated');
    return undefined;
  };
  putStatus = async () => {};
  intent = async () => undefined;
  putIntent = async () => {};
  close = async () => {};
}

const replicaOn = (coordinator: FakeCoordinator, clock: ManualClock) => {
  const log = memoryLogger();
  const replica = new ShardReplica({
    coordinator,
    state: {} as StateStore,
    id: 'a',
    clock,
    logger: log.logger,
    settleMs: 2000,
    wake: () => {},
    status: initialStatus('git', { suspended: false, dryRun: false, selfHeal: true }),
    memory: {},
  });
  return { replica, lines: log.lines };
};

describe('a sharded replica that joins', () => {
  it('waits two polls before taking shards, again after its lock session reconnects', async () => {
    const clock = new ManualClock();
    const coordinator = new FakeCoordinator(clock);
    const { replica } = replicaOn(coordinator, clock);
    const poll = async () => {
      expect(await replica.lease.tryAcquire()).toBe(true);
      return [...coordinator.held().keys()];
    };
    expect(await poll()).toEqual([]);
    await clock.advance(1000);
    expect(await poll()).toEqual([]);
    await clock.advance(1000);
    expect(await poll()).toEqual(['global']);

    // the session ended (network cut, server restart): rejoining is a new seat that settles anew
    coordinator.cut();
    await clock.advance(1000);
    expect(await poll()).toEqual([]);
    await clock.advance(1000);
    expect(await poll()).toEqual([]);
    await clock.advance(1000);
    expect(await poll()).toEqual(['global']);
  });

  it('keeps a shard it took when its saved status cannot be read, and says so', async () => {
    const clock = new ManualClock();
    const coordinator = new FakeCoordinator(clock);
    const { replica, lines } = replicaOn(coordinator, clock);
    coordinator.statusFails = true;
    expect(await replica.lease.tryAcquire()).toBe(true);
    await clock.advance(2000);
    expect(await replica.lease.tryAcquire()).toBe(true);
    expect([...coordinator.held().keys()]).toEqual(['global']);
    expect(lines.some((l) => l.includes('"event":"status-restore-error"'))).toBe(true);
  });
});
