import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { deepFreeze } from '../../src/core/freeze.js';
import type { Manifest } from '../../src/model/manifest.js';
import { cachedStore } from '../../src/state/cached.js';
import { openStateStore } from '../../src/state/sqlite-store.js';
import type { InventoryEntry, LeaseHolder, StateStore } from '../../src/state/types.js';

const dirs: string[] = [];
const stores: StateStore[] = [];
afterEach(async () => {
  for (const s of stores.splice(0)) await s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

const holderA: LeaseHolder = { id: 'controller:a', pid: 1, host: 'a' };
const holderB: LeaseHolder = { id: 'apply:b', pid: 2, host: 'b' };

function entry(name: string, extra: Partial<InventoryEntry> = {}): InventoryEntry {
  const ref = { kind: 'Workspace' as const, project: 'p', name };
  return {
    key: `Workspace/p/${name}`,
    kind: 'Workspace',
    ref,
    createdByPlatctl: true,
    protected: false,
    ...extra,
  };
}

function manifest(name: string, description?: string): Manifest {
  return {
    apiVersion: 'paas.envmgmt.io/v1',
    kind: 'Workspace',
    metadata: { name, project: 'p', description },
  } as unknown as Manifest;
}

/** Two stores on one SQLite file, the first counting the table reads that reach it. */
function place() {
  const dir = mkdtempSync(join(tmpdir(), 'platctl-cached-'));
  dirs.push(dir);
  const path = join(dir, 'state.db');
  const base = openStateStore(path);
  const other = openStateStore(path);
  stores.push(base, other);
  const reads = { inventory: 0, lastApplied: 0 };
  const counted: StateStore = Object.assign(Object.create(base) as StateStore, {
    inventory: () => {
      reads.inventory++;
      return base.inventory();
    },
    lastApplied: () => {
      reads.lastApplied++;
      return base.lastApplied();
    },
  });
  return { base, other, reads, cached: cachedStore(counted, holderA) };
}

describe('cached state store', () => {
  it('reads inventory and last-applied once while it holds the lease, and keeps its own writes', async () => {
    const { base, reads, cached } = place();
    await base.putInventory(entry('ws-z'));
    await base.putLastApplied('Workspace/p/ws-z', manifest('ws-z'));
    const lease = await cached.acquire({ holder: holderA, heartbeat: false });
    expect(await cached.inventory()).toEqual(await base.inventory());
    await cached.putInventory(entry('ws-a', { id: 'id-1' }));
    await cached.batch([
      { type: 'putInventory', entry: entry('ws-m') },
      { type: 'putLastApplied', key: 'Workspace/p/ws-m', manifest: manifest('ws-m') },
      { type: 'removeInventory', key: 'Workspace/p/ws-z' },
      { type: 'removeLastApplied', key: 'Workspace/p/ws-z' },
    ]);
    await cached.putLastApplied('Workspace/p/ws-a', manifest('ws-a', undefined));
    // what the cache answers is what a fresh read of the store answers, order and JSON shape too
    expect(await cached.inventory()).toEqual(await base.inventory());
    expect([...(await cached.lastApplied())]).toEqual([...(await base.lastApplied())]);
    expect(reads).toEqual({ inventory: 1, lastApplied: 1 });
    await lease.release();
  });

  // a first apply of 100,000 kept a JSON copy of every manifest it applied beside the loaded
  // revision's: one the planner froze cannot change, so it is kept as it is
  it('keeps a frozen plain manifest as it is, and copies any other as the store would give it', async () => {
    const { base, cached } = place();
    const lease = await cached.acquire({ holder: holderA, heartbeat: false });
    await cached.lastApplied();
    const frozen = deepFreeze(manifest('ws-f', 'kept'));
    const open = manifest('ws-o', 'copied');
    const withUndefined = deepFreeze(manifest('ws-u', undefined));
    await cached.batch([
      { type: 'putLastApplied', key: 'Workspace/p/ws-f', manifest: frozen },
      { type: 'putLastApplied', key: 'Workspace/p/ws-o', manifest: open },
      { type: 'putLastApplied', key: 'Workspace/p/ws-u', manifest: withUndefined },
    ]);
    const kept = await cached.lastApplied();
    expect(kept.get('Workspace/p/ws-f')).toBe(frozen);
    expect(kept.get('Workspace/p/ws-o')).not.toBe(open);
    expect(kept.get('Workspace/p/ws-u')).not.toBe(withUndefined);
    expect([...kept]).toStrictEqual([...(await base.lastApplied())]);
    await lease.release();
  });

  it('reads afresh once another writer may have written (the lease changed hands)', async () => {
    const { other, reads, cached } = place();
    let lease = await cached.acquire({ holder: holderA, heartbeat: false });
    expect(await cached.inventory()).toEqual([]);
    await lease.release();
    const theirs = await other.acquire({ holder: holderB, heartbeat: false });
    await other.putInventory(entry('ws-b'));
    await theirs.release();
    lease = await cached.acquire({ holder: holderA, heartbeat: false });
    expect((await cached.inventory()).map((e) => e.key)).toEqual(['Workspace/p/ws-b']);
    expect(reads.inventory).toBe(2);
    await lease.release();
  });

  it('reads through while it does not hold the lease', async () => {
    const { other, reads, cached } = place();
    await cached.inventory();
    await other.putInventory(entry('ws-c'));
    expect((await cached.inventory()).map((e) => e.key)).toEqual(['Workspace/p/ws-c']);
    expect(reads.inventory).toBe(2);
  });
});
