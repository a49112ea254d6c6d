import { GLOBAL_SHARD, type StoredJson, shardOfKey } from '../../../state/index.js';
import type { AlertMemory } from '../../notify/memory.js';
import { SOURCE_FIELDS } from '../../status/persist.js';
import type { ControllerStatus, StepMemory } from '../../status/status.js';

/** The status documents' format; a document of another version is not restored. */
export const SHARD_DOC_VERSION = 1;

/** One shard's part of the per-resource lists, in the lists' own order. */
interface Part {
  readonly conditions: ControllerStatus['conditions'][number][];
  readonly drift: string[];
  readonly inventory: string[];
  readonly prune: string[];
  readonly approved: string[];
  readonly failed: string[];
  readonly drifted: string[];
  readonly corrected: string[];
  readonly alertPrune: string[];
}

const emptyPart = (): Part => ({
  conditions: [],
  drift: [],
  inventory: [],
  prune: [],
  approved: [],
  failed: [],
  drifted: [],
  corrected: [],
  alertPrune: [],
});

/**
 * The status document of each of `shards` (pure): the conditions, drift, inventory, held prune,
 * approved deletions and alert keys of its resources; for `global`, also the source's revisions
 * and results. Every list is read once and dealt to its shard (a save of 1,000 shards does not
 * read the status 1,000 times); each document holds its items in the status's order.
 */
export function shardDocuments(
  shards: Iterable<string>,
  status: ControllerStatus,
  memory: StepMemory,
  alerts: AlertMemory | undefined,
): Map<string, StoredJson> {
  const parts = new Map<string, Part>();
  for (const s of shards) parts.set(s, emptyPart());
  const deal = <T>(
    items: readonly T[] | undefined,
    keyOf: (item: T) => string,
    field: keyof Part,
  ) => {
    for (const item of items ?? []) {
      (parts.get(shardOfKey(keyOf(item)))?.[field] as T[] | undefined)?.push(item);
    }
  };
  const self = (k: string) => k;
  deal(status.conditions, (c) => c.key, 'conditions');
  deal(status.drift, self, 'drift');
  deal(status.inventory, self, 'inventory');
  deal(status.blockedPrune?.keys, self, 'prune');
  deal(memory.approvedDeletes, self, 'approved');
  if (alerts) {
    deal(alerts.keys.failed, self, 'failed');
    deal(alerts.keys.drifted, self, 'drifted');
    deal(alerts.keys.corrected, self, 'corrected');
    deal(alerts.keys.prune, self, 'alertPrune');
  }
  const docs = new Map<string, StoredJson>();
  for (const [shard, p] of parts) {
    const doc: Record<string, unknown> = {
      version: SHARD_DOC_VERSION,
      conditions: p.conditions,
      drift: p.drift,
      inventory: p.inventory,
      ...(alerts ? { alerts: alertsPart(alerts, p) } : {}),
    };
    if (status.blockedPrune && p.prune.length > 0) {
      doc.blockedPrune = { ...status.blockedPrune, count: p.prune.length, keys: p.prune };
    }
    if (p.approved.length > 0) doc.approvedDeletes = p.approved;
    if (shard === GLOBAL_SHARD) {
      for (const k of SOURCE_FIELDS) if (status[k] !== undefined) doc[k] = status[k];
    }
    docs.set(shard, doc);
  }
  return docs;
}

/** A shard's part of the alerts' memory: its keys, and the run's marks every shard carries. */
function alertsPart(memory: AlertMemory, p: Part): AlertMemory {
  return {
    ...memory,
    keys: {
      failed: p.failed,
      drifted: p.drifted,
      corrected: p.corrected,
      ...(p.alertPrune.length > 0 ? { prune: p.alertPrune } : {}),
    },
  };
}
