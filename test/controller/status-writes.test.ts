import { describe, expect, it } from 'vitest';
import { ShardStatusBook } from '../../src/controller/leadership/shards/shard-status.js';
import type { ResourceCondition } from '../../src/controller/status/conditions.js';
import { statePersistence } from '../../src/controller/status/persist.js';
import { initialStatus } from '../../src/controller/status/status.js';
import type { StoredJson } from '../../src/state/types.js';
import { memoryLogger } from './helpers/fakes.js';

function condition(name: string, reason = 'InSync'): ResourceCondition {
  return {
    key: `Workspace/p/${name}`,
    kind: 'Workspace',
    project: 'p',
    name,
    condition: 'Ready',
    reason,
    lastTransitionTime: '2026-11-28T00:00:00.000Z',
    order: 0,
    dependsOn: [],
  };
}

/** A store that counts the status documents written and keeps the last. */
function countingStore() {
  const docs: StoredJson[] = [];
  let runs = 0;
  return {
    docs,
    runs: () => runs,
    putControllerStatus: async (doc: StoredJson) => {
      docs.push(JSON.parse(JSON.stringify(doc)) as StoredJson);
    },
    appendRun: async () => {
      runs++;
    },
  };
}

const run = (n: number) =>
  ({ runId: `run-${n}`, trigger: 'interval', result: 'succeeded' }) as never;

describe('the status document is written when it changed', () => {
  it('an idle resync that changes nothing but its time does not rewrite it', async () => {
    const store = countingStore();
    const status = initialStatus('dir:x', { suspended: false, dryRun: false, selfHeal: true });
    const save = statePersistence(store, status);
    const kept = [condition('a'), condition('b')];
    status.conditions = kept;
    status.inventory = ['Workspace/p/a', 'Workspace/p/b'];
    status.lastRunAt = '2026-11-28T00:00:10.000Z';
    await save(run(1));
    // the next run: new arrays, the same conditions, a later time
    status.conditions = [...kept];
    status.inventory = [...status.inventory];
    status.lastRunAt = '2026-11-28T00:00:20.000Z';
    status.lastAppliedAt = status.lastRunAt;
    await save(run(2));
    expect(store.docs).toHaveLength(1);
    expect(store.runs()).toBe(2); // every run is in the history
  });

  it('is written again when a condition, a list or another field changed', async () => {
    const store = countingStore();
    const status = initialStatus('dir:x', { suspended: false, dryRun: false, selfHeal: true });
    const save = statePersistence(store, status);
    status.conditions = [condition('a')];
    await save(undefined);
    status.conditions = [condition('a', 'Drift')];
    await save(undefined);
    expect(store.docs.at(-1)?.conditions).toEqual([condition('a', 'Drift')]);
    status.inventory = ['Workspace/p/a'];
    await save(undefined);
    status.lastError = 'boom';
    status.lastRunAt = '2026-11-28T00:01:00.000Z';
    await save(undefined);
    expect(store.docs).toHaveLength(4);
    expect(store.docs.at(-1)).toMatchObject({
      lastError: 'boom',
      lastRunAt: '2026-11-28T00:01:00.000Z',
    });
  });

  it('is written again once another replica may have written (leadership taken up again)', async () => {
    const store = countingStore();
    const status = initialStatus('dir:x', { suspended: false, dryRun: false, selfHeal: true });
    const save = statePersistence(store, status);
    await save(undefined);
    save.forget();
    await save(undefined);
    expect(store.docs).toHaveLength(2);
  });

  it('a failed write is made again at the next save', async () => {
    const store = countingStore();
    let fail = true;
    const flaky = {
      ...store,
      putControllerStatus: async (doc: StoredJson) => {
        if (fail) throw new Error('refused');
        await store.putControllerStatus(doc);
      },
    };
    const status = initialStatus('dir:x', { suspended: false, dryRun: false, selfHeal: true });
    const save = statePersistence(flaky, status);
    await expect(save(undefined)).rejects.toThrow('refused');
    fail = false;
    await save(undefined);
    expect(store.docs).toHaveLength(1);
  });
});

describe('sharded: each shard document is written when it changed', () => {
  /** A coordinator holding two shards that counts the documents written per shard. */
  function coordinator() {
    const writes: string[] = [];
    return {
      writes,
      held: () =>
        new Map([
          ['project:p', 1],
          ['global', 1],
        ]),
      putStatus: async (shard: string) => {
        writes.push(shard);
      },
      status: async () => undefined,
    };
  }

  it('an idle resync rewrites no shard; a shard taken again is written once more', async () => {
    const c = coordinator();
    const status = initialStatus('dir:x', { suspended: false, dryRun: false, selfHeal: true });
    const book = new ShardStatusBook({
      coordinator: c as never,
      status,
      memory: {},
      logger: memoryLogger().logger,
    });
    const save = book.persistence({ appendRun: async () => {} });
    const kept = [{ ...condition('a'), key: 'Workspace/p/a' }];
    status.conditions = kept;
    status.lastRunAt = '2026-11-28T00:00:10.000Z';
    await save(run(1));
    expect(c.writes.sort()).toEqual(['global', 'project:p']);
    status.conditions = [...kept];
    status.lastRunAt = '2026-11-28T00:00:20.000Z';
    await save(run(2));
    expect(c.writes).toHaveLength(2);
    await book.taken('project:p');
    await save(run(3));
    expect(c.writes.slice(2)).toEqual(['project:p']);
  });
});
