import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { openStateStore } from '../../src/state/index.js';
import { fakeClock } from '../reconcile/helpers.js';
import { placesOf, sqliteFactory } from './factories.js';

const holder = (id: string, pid: number) => ({ id, pid, host: 'build-7' });

describe('SQLite run lease (a row with an expiry)', () => {
  const places = placesOf(sqliteFactory);

  it('names the holder with the time it took the lease', async () => {
    const place = await places.place();
    const clock = fakeClock(Date.UTC(2026, 0, 1));
    const a = await place.open({ clock });
    const b = await place.open({ clock });
    await a.acquire({ holder: holder('one', 4242), heartbeat: false });
    await expect(b.acquire({ holder: holder('two', 99), heartbeat: false })).rejects.toThrow(
      'pid 4242 on build-7 since 2026-01-01T00:00:00.000Z',
    );
  });

  it('expires without heartbeat, so a standby takes over; renew keeps it', async () => {
    const place = await places.place();
    const clock = fakeClock(Date.UTC(2026, 0, 1));
    const a = await place.open({ clock });
    const b = await place.open({ clock });
    const first = await a.acquire({ holder: holder('one', 1), ttlMs: 1000, heartbeat: false });
    clock.advance(900);
    await first.renew();
    clock.advance(900);
    await expect(b.acquire({ holder: holder('two', 2), heartbeat: false })).rejects.toThrow(
      /locked/,
    );
    clock.advance(200);
    await b.acquire({ holder: holder('two', 2), heartbeat: false });
    await expect(first.renew()).rejects.toThrow(/lost/);
  });

  it('shows the run the holder is doing, also in a file made before the lease recorded runs', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'platctl-lease-run-'));
    try {
      const path = join(dir, 'state.db');
      const old = new Database(path);
      old.exec(`CREATE TABLE lease (
        name TEXT PRIMARY KEY, holder_id TEXT NOT NULL, pid INTEGER NOT NULL, host TEXT NOT NULL,
        since INTEGER NOT NULL, expires_at INTEGER NOT NULL)`);
      old.close();
      const clock = fakeClock(Date.UTC(2026, 0, 1));
      const a = openStateStore(path, { clock });
      const b = openStateStore(path, { clock });
      await a.acquire({ holder: holder('one', 4242), runId: 'run-42', heartbeat: false });
      expect(await b.leaseHolder()).toMatchObject({ id: 'one', pid: 4242, runId: 'run-42' });
      await expect(b.acquire({ holder: holder('two', 99), heartbeat: false })).rejects.toThrow(
        '(holder one, run run-42)',
      );
      await a.close();
      await b.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('keeps working on a file whose tables were made with rowids (before WITHOUT ROWID)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'platctl-rowid-'));
    try {
      const path = join(dir, 'state.db');
      const old = new Database(path);
      old.exec(`CREATE TABLE inventory (
        key TEXT PRIMARY KEY, kind TEXT NOT NULL, ref TEXT NOT NULL, id TEXT,
        created_by_platctl INTEGER NOT NULL, protected INTEGER NOT NULL);
      CREATE TABLE pending (
        key TEXT PRIMARY KEY, action_id TEXT NOT NULL, ref TEXT NOT NULL, started_at INTEGER NOT NULL);
      CREATE TABLE outcomes (
        run_id TEXT NOT NULL, action_id TEXT NOT NULL, key TEXT NOT NULL, outcome TEXT NOT NULL,
        PRIMARY KEY (run_id, action_id));`);
      old.close();
      const s = openStateStore(path);
      const ref = { kind: 'Workspace' as const, project: 'p', name: 'ws' };
      const entry = { key: 'Workspace/p/ws', kind: 'Workspace' as const, ref };
      const outcome = { status: 'succeeded', elapsedMs: 1 } as const;
      await s.batch([
        { type: 'beginPending', op: { key: entry.key, actionId: 'a1', ref, startedAt: 1 } },
        { type: 'putInventory', entry: { ...entry, createdByPlatctl: true, protected: false } },
        { type: 'putInventory', entry: { ...entry, createdByPlatctl: false, protected: true } },
        { type: 'beginPending', op: { key: 'Workspace/p/b', actionId: 'a2', ref, startedAt: 2 } },
        { type: 'clearPending', key: entry.key },
        { type: 'recordOutcome', runId: 'r', actionId: 'a1', key: entry.key, outcome },
      ]);
      expect(await s.inventory()).toEqual([{ ...entry, createdByPlatctl: false, protected: true }]);
      expect((await s.pending()).map((p) => p.key)).toEqual(['Workspace/p/b']);
      expect(await s.outcomes()).toEqual([{ runId: 'r', actionId: 'a1', key: entry.key, outcome }]);
      await s.close();
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
