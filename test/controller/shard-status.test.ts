import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ShardStatusBook } from '../../src/controller/leadership/shards/shard-status.js';
import { AlertTracker } from '../../src/controller/notify/tracker.js';
import type { ResourceCondition } from '../../src/controller/status/conditions.js';
import type { StepMemory } from '../../src/controller/status/status.js';
import { type ControllerStatus, initialStatus } from '../../src/controller/status/status.js';
import {
  openShardCoordinator,
  openState,
  type ShardCoordinator,
  type StateStore,
} from '../../src/state/index.js';
import { postgresUrl, type TestSchema, testSchema } from '../helpers/postgres.js';
import { memoryLogger } from './helpers/fakes.js';

const condition = (project: string, name: string, reason: string): ResourceCondition => ({
  key: `Workspace/${project}/${name}`,
  kind: 'Workspace',
  project,
  name,
  condition: 'Ready',
  reason,
  lastTransitionTime: '2026-11-23T12:00:00.000Z',
  order: 0,
  dependsOn: [],
});

interface Seat {
  readonly coordinator: ShardCoordinator;
  readonly status: ControllerStatus;
  readonly memory: StepMemory;
  readonly book: ShardStatusBook;
  readonly persist: () => Promise<void>;
}

describe.skipIf(!postgresUrl)('status of sharded replicas: one document per shard', () => {
  let schema: TestSchema;
  let store: StateStore;
  const seats: Seat[] = [];
  beforeAll(async () => {
    schema = await testSchema('shard_status');
    store = await openState(schema.url);
  });
  afterAll(async () => {
    for (const s of seats) await s.coordinator.close();
    await store?.close();
    await schema?.drop();
  });
  const seat = async (id: string, shards: string[]): Promise<Seat> => {
    const coordinator = await openShardCoordinator(schema.url, {
      replica: { id, pid: 1, host: 'test' },
    });
    expect(await coordinator.join()).toBe(true);
    const status = initialStatus('git', { suspended: false, dryRun: false, selfHeal: true });
    const memory: StepMemory = {};
    const book = new ShardStatusBook({
      coordinator,
      status,
      memory,
      logger: memoryLogger().logger,
    });
    for (const s of shards) {
      expect(await coordinator.take(s)).toBe(true);
      await book.taken(s);
    }
    const persist = book.persistence(store);
    const out = { coordinator, status, memory, book, persist: () => persist(undefined) };
    seats.push(out);
    return out;
  };

  it("saves what the alerts remember per shard, and the taker of a shard adds that shard's", async () => {
    const a = await seat('a2', ['global', 'project:p2', 'project:q2']);
    const sent = new AlertTracker();
    sent.restore({
      version: 1,
      failing: 'failed:rev-9',
      applied: 'rev-8',
      keys: {
        failed: ['Workspace/p2/w', 'Workspace/q2/w'],
        drifted: ['Workspace/q2/x'],
        corrected: [],
      },
    });
    a.book.alerts = sent;
    await a.persist();
    await a.coordinator.close();
    const b = await seat('b2', []);
    const taker = new AlertTracker();
    b.book.alerts = taker;
    expect(await b.coordinator.take('project:q2')).toBe(true);
    await b.book.taken('project:q2');
    expect(taker.memory()).toEqual({
      version: 1,
      failing: 'failed:rev-9',
      applied: 'rev-8',
      keys: { failed: ['Workspace/q2/w'], drifted: ['Workspace/q2/x'], corrected: [] },
    });
  });

  it("keeps each replica's shards apart and brings them to whoever takes them over", async () => {
    const a = await seat('a', ['global', 'project:p']);
    const b = await seat('b', ['project:q']);
    a.status.conditions = [condition('p', 'w', 'Applied')];
    a.status.fetchedRevision = 'rev-2';
    a.status.lastRunAt = '2026-11-23T12:00:00.000Z';
    b.status.conditions = [condition('q', 'w', 'Drift')];
    b.status.drift = ['Workspace/q/w'];
    b.status.blockedPrune = {
      runId: 'run-b',
      count: 2,
      limit: 1,
      keys: ['Workspace/q/x', 'Workspace/q/y'],
    };
    b.memory.approvedDeletes = ['Workspace/q/x', 'Workspace/q/y'];
    // both save; neither overwrites the other (the unsharded leader's row stays untouched)
    await a.persist();
    await b.persist();
    expect(await store.controllerStatus()).toBeUndefined();

    // a dies; c takes its shards and finds their status, not b's
    await a.coordinator.close();
    const c = await seat('c', ['project:p', 'global']);
    expect(c.status.conditions.map((x) => x.key)).toEqual(['Workspace/p/w']);
    expect(c.status.fetchedRevision).toBe('rev-2');
    expect(c.status.blockedPrune).toBeUndefined();

    // b dies too: its held prune, its approval and its drift survive the failover to c
    await b.coordinator.close();
    expect(await c.coordinator.take('project:q')).toBe(true);
    await c.book.taken('project:q');
    expect(c.status.conditions.map((x) => x.key).sort()).toEqual([
      'Workspace/p/w',
      'Workspace/q/w',
    ]);
    expect(c.status.drift).toEqual(['Workspace/q/w']);
    expect(c.status.blockedPrune).toMatchObject({
      runId: 'run-b',
      count: 2,
      keys: ['Workspace/q/x', 'Workspace/q/y'],
    });
    expect(c.memory.approvedDeletes).toEqual(['Workspace/q/x', 'Workspace/q/y']);

    // a run of c that covered p only replaces the lists wholesale: q's restored part is saved back
    c.book.covered(['project:p']);
    c.status.conditions = [condition('p', 'w', 'InSync')];
    c.status.drift = [];
    c.status.blockedPrune = undefined;
    await c.persist();
    const d = await seat('d', []);
    expect(await d.coordinator.status('project:q')).toMatchObject({
      drift: ['Workspace/q/w'],
      blockedPrune: { runId: 'run-b' },
    });
    expect(await d.coordinator.status('project:p')).toMatchObject({
      conditions: [{ key: 'Workspace/p/w', reason: 'InSync' }],
    });

    // a shard given up leaves the status, and its document is no longer this replica's to write
    await c.coordinator.release('project:q');
    c.book.released('project:q');
    expect(c.status.drift).toEqual([]);
    await expect(c.coordinator.putStatus('project:q', { version: 1 })).rejects.toMatchObject({
      code: 'locked',
    });
  });
});
