import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { shardDocuments } from '../../src/controller/leadership/shards/shard-docs.js';
import { dropShards, restoreShards } from '../../src/controller/leadership/shards/shard-restore.js';
import type { AlertMemory } from '../../src/controller/notify/memory.js';
import type { ResourceCondition } from '../../src/controller/status/conditions.js';
import { SOURCE_FIELDS } from '../../src/controller/status/persist.js';
import {
  type ControllerStatus,
  initialStatus,
  type StepMemory,
} from '../../src/controller/status/status.js';
import { GLOBAL_SHARD, shardOfKey } from '../../src/state/index.js';

/** What a shard's document is, said per shard with filters (the definition the bulk one keeps). */
function oneDocument(
  shard: string,
  status: ControllerStatus,
  memory: StepMemory,
  alerts: AlertMemory | undefined,
) {
  const mine = (key: string) => shardOfKey(key) === shard;
  const doc: Record<string, unknown> = {
    version: 1,
    conditions: status.conditions.filter((c) => mine(c.key)),
    drift: status.drift.filter(mine),
    inventory: status.inventory.filter(mine),
  };
  if (alerts) {
    const prune = alerts.keys.prune?.filter(mine) ?? [];
    doc.alerts = {
      ...alerts,
      keys: {
        failed: alerts.keys.failed.filter(mine),
        drifted: alerts.keys.drifted.filter(mine),
        corrected: alerts.keys.corrected.filter(mine),
        ...(prune.length > 0 ? { prune } : {}),
      },
    };
  }
  const prune = status.blockedPrune?.keys.filter(mine) ?? [];
  if (status.blockedPrune && prune.length > 0) {
    doc.blockedPrune = { ...status.blockedPrune, count: prune.length, keys: prune };
  }
  const approved = memory.approvedDeletes?.filter(mine) ?? [];
  if (approved.length > 0) doc.approvedDeletes = approved;
  if (shard === GLOBAL_SHARD) {
    for (const k of SOURCE_FIELDS) if (status[k] !== undefined) doc[k] = status[k];
  }
  return doc;
}

const key = fc.oneof(
  fc
    .tuple(fc.constantFrom('p1', 'p2', 'p3', 'p4'), fc.constantFrom('a', 'b', 'c'))
    .map(([p, n]) => `Workspace/${p}/${n}`),
  fc.constantFrom('a', 'b').map((n) => `User/${n}`),
  fc.constantFrom('p1', 'p2').map((p) => `ComputeInstance/${p}/ws/vm`),
);
const keys = fc.array(key, { maxLength: 12 });
const condition = (k: string, i: number): ResourceCondition => {
  const [kind, project, name] = k.split('/') as [string, string, string];
  return {
    key: k,
    kind,
    project,
    name: name ?? project,
    condition: 'Ready',
    reason: `r${i}`,
    lastTransitionTime: '2026-11-28T10:00:00.000Z',
    order: i,
    dependsOn: [],
  } as ResourceCondition;
};

describe('shardDocuments', () => {
  it("gives each shard the document its per-shard filters define, items in the status's order", () => {
    fc.assert(
      fc.property(
        keys,
        keys,
        keys,
        fc.option(keys, { nil: undefined }),
        fc.option(keys, { nil: undefined }),
        fc.option(fc.tuple(keys, keys, keys, fc.option(keys, { nil: undefined })), {
          nil: undefined,
        }),
        fc.subarray(['global', 'project:p1', 'project:p2', 'project:p3', 'project:p9']),
        (conds, drift, inventory, prune, approved, alertKeys, shards) => {
          const status = initialStatus('git', { suspended: false, dryRun: false, selfHeal: true });
          status.conditions = conds.map(condition);
          status.drift = drift;
          status.inventory = inventory;
          status.lastAppliedRevision = 'rev-1';
          if (prune) {
            status.blockedPrune = { runId: 'run-1', limit: 5, count: prune.length, keys: prune };
          }
          const memory: StepMemory = approved ? { approvedDeletes: approved } : {};
          const alerts: AlertMemory | undefined = alertKeys && {
            version: 1,
            applied: 'rev-1',
            keys: {
              failed: alertKeys[0],
              drifted: alertKeys[1],
              corrected: alertKeys[2],
              ...(alertKeys[3] ? { prune: alertKeys[3] } : {}),
            },
          };
          const docs = shardDocuments(shards, status, memory, alerts);
          expect([...docs.keys()]).toEqual(shards);
          for (const s of shards) {
            // the same document, its fields in the same order (a saved document's text)
            expect(JSON.stringify(docs.get(s))).toBe(
              JSON.stringify(oneDocument(s, status, memory, alerts)),
            );
          }
        },
      ),
      { numRuns: 300 },
    );
  });
});

/** Restoring shards one after the other, as a replica did before (the definition kept). */
function restoreOneByOne(
  docs: [string, Record<string, unknown> | undefined][],
  status: ControllerStatus,
  memory: StepMemory,
) {
  for (const [shard, doc] of docs) {
    if (doc?.version !== 1) continue;
    dropOne(shard, status, memory);
    const list = <T>(v: unknown) => (Array.isArray(v) ? (v as T[]) : []);
    status.conditions = [...status.conditions, ...list<ResourceCondition>(doc.conditions)];
    status.drift = [...status.drift, ...list<string>(doc.drift)];
    status.inventory = [...status.inventory, ...list<string>(doc.inventory)];
    const prune = doc.blockedPrune as ControllerStatus['blockedPrune'];
    if (prune) {
      const keys = [...(status.blockedPrune?.keys ?? []), ...prune.keys];
      status.blockedPrune = { ...(status.blockedPrune ?? prune), count: keys.length, keys };
    }
    const approved = list<string>(doc.approvedDeletes);
    if (approved.length > 0)
      memory.approvedDeletes = [...(memory.approvedDeletes ?? []), ...approved];
    if (shard === GLOBAL_SHARD && status.lastRunAt === undefined) {
      const target = status as unknown as Record<string, unknown>;
      for (const k of SOURCE_FIELDS) if (doc[k] !== undefined) target[k] = doc[k];
    }
  }
}

function dropOne(shard: string, status: ControllerStatus, memory: StepMemory) {
  const other = (key: string) => shardOfKey(key) !== shard;
  status.conditions = status.conditions.filter((c) => other(c.key));
  status.drift = status.drift.filter(other);
  status.inventory = status.inventory.filter(other);
  const keys = status.blockedPrune?.keys.filter(other) ?? [];
  status.blockedPrune =
    status.blockedPrune && keys.length > 0
      ? { ...status.blockedPrune, count: keys.length, keys }
      : undefined;
  if (memory.approvedDeletes) memory.approvedDeletes = memory.approvedDeletes.filter(other);
}

const statusOf = (
  parts: [string[], string[], string[], string[] | undefined, string[] | undefined],
  run: string,
) => {
  const [conds, drift, inventory, prune, approved] = parts;
  const status = initialStatus('git', { suspended: false, dryRun: false, selfHeal: true });
  status.conditions = conds.map(condition);
  status.drift = drift;
  status.inventory = inventory;
  status.lastAppliedRevision = run;
  if (prune) status.blockedPrune = { runId: run, limit: 5, count: prune.length, keys: prune };
  const memory: StepMemory = approved ? { approvedDeletes: approved } : {};
  return { status, memory };
};
const statusParts = fc.tuple(
  keys,
  keys,
  keys,
  fc.option(keys, { nil: undefined }),
  fc.option(keys, { nil: undefined }),
);
const shardNames = fc.subarray(['global', 'project:p1', 'project:p2', 'project:p3', 'project:p4']);

describe('restoreShards and dropShards', () => {
  it('restore any number of shards at once as one after the other did', () => {
    fc.assert(
      fc.property(
        statusParts,
        statusParts,
        shardNames,
        fc.boolean(),
        fc.boolean(),
        (mine, theirs, shards, oldVersion, missing) => {
          // the documents the previous holder saved (each holds only its shard's resources)
          const saved = statusOf(theirs, 'rev-theirs');
          const written = shardDocuments(shards, saved.status, saved.memory, undefined);
          const docs: [string, Record<string, unknown> | undefined][] = shards.map((s, i) => [
            s,
            missing && i === 0
              ? undefined
              : oldVersion && i === 1
                ? { ...(written.get(s) as object), version: 0 }
                : (written.get(s) as Record<string, unknown>),
          ]);
          const a = statusOf(mine, 'rev-mine');
          const b = statusOf(mine, 'rev-mine');
          a.status.lastRunAt = undefined;
          b.status.lastRunAt = undefined;
          restoreOneByOne(docs, a.status, a.memory);
          const restored = restoreShards(docs as never, b.status, b.memory);
          // Two blocked prunes of different runs merged: one after the other, whose run the
          // merge names depended on the order; at once, it is the run of a prune kept.
          expect(['rev-mine', 'rev-theirs', undefined]).toContain(b.status.blockedPrune?.runId);
          const keysOnly = (x: typeof a) =>
            JSON.stringify({
              ...x,
              status: { ...x.status, blockedPrune: x.status.blockedPrune?.keys },
            });
          expect(keysOnly(b)).toBe(keysOnly(a));
          expect([...restored]).toEqual(docs.filter(([, d]) => d?.version === 1).map(([s]) => s));
        },
      ),
      { numRuns: 300 },
    );
  });

  it('drop any number of shards at once as one after the other did', () => {
    fc.assert(
      fc.property(statusParts, shardNames, (parts, shards) => {
        const a = statusOf(parts, 'r');
        const b = statusOf(parts, 'r');
        for (const s of shards) dropOne(s, a.status, a.memory);
        dropShards(new Set(shards), b.status, b.memory);
        expect(JSON.stringify(b)).toBe(JSON.stringify(a));
      }),
      { numRuns: 300 },
    );
  });
});
