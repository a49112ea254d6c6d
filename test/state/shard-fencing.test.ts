import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  openShardCoordinator,
  openState,
  type ShardCoordinator,
  type StateStore,
} from '../../src/state/index.js';
import { postgresUrl, type TestSchema, testSchema } from '../helpers/postgres.js';
import { spawnTsx } from '../helpers/process.js';
import { m } from '../reconcile/manifests.js';

const holderScript = fileURLToPath(new URL('./fixtures/pg-shard-holder.ts', import.meta.url));
const replica = (id: string) => ({ id, pid: 1, host: 'test' });
const entry = (project: string, name: string) => ({
  key: `Workspace/${project}/${name}`,
  kind: 'Workspace' as const,
  ref: { kind: 'Workspace' as const, project, name },
  createdByPlatctl: true,
  protected: false,
});

describe.skipIf(!postgresUrl)(
  'shards of the PostgreSQL state: one lock and epoch per project',
  () => {
    let schema: TestSchema;
    let store: StateStore;
    const open: ShardCoordinator[] = [];
    let paused: ChildProcess | undefined;
    beforeAll(async () => {
      schema = await testSchema('shard_fence');
      store = await openState(schema.url);
    });
    afterAll(async () => {
      paused?.kill('SIGKILL');
      for (const c of open) await c.close();
      await store?.close();
      await schema?.drop();
    });
    const coordinator = async (id: string, ttlMs = 15_000) => {
      const c = await openShardCoordinator(schema.url, { replica: replica(id), ttlMs });
      open.push(c);
      expect(await c.join()).toBe(true);
      return c;
    };

    it("a run's view reads and writes only its shards, and only while its epoch stands", async () => {
      await store.putInventory(entry('q', 'other'));
      const a = await coordinator('a');
      const b = await coordinator('b');
      expect((await a.members()).map((x) => x.id)).toEqual(['a', 'b']);
      expect(await a.take('project:p')).toBe(true);
      expect(await b.take('project:p')).toBe(false);
      const run1 = a.view(store, a.held());
      await run1.putInventory(entry('p', 'mine'));
      expect((await run1.inventory()).map((e) => e.key)).toEqual(['Workspace/p/mine']);
      await expect(run1.putInventory(entry('q', 'theirs'))).rejects.toMatchObject({
        code: 'locked',
      });
      expect((await a.owners()).map((o) => [o.shard, o.replicaId])).toEqual([['project:p', 'a']]);
      // an apply (the run lock, exclusive) is refused beside sharded replicas, and told why
      await expect(store.acquire({ holder: replica('apply'), heartbeat: false })).rejects.toThrow(
        /used by 2 controller replica\(s\) sharding by project \(pid 1 on test since/,
      );

      // a gives the shard up and takes it again: the earlier run's writes stay refused
      await a.release('project:p');
      expect(await a.take('project:p')).toBe(true);
      await expect(run1.removeInventory('Workspace/p/mine')).rejects.toMatchObject({
        code: 'locked',
      });
      await a.view(store, a.held()).removeInventory('Workspace/p/mine');
      // and once b holds it, a's batch is refused whole
      const run2 = a.view(store, a.held());
      await a.release('project:p');
      expect(await b.take('project:p')).toBe(true);
      await expect(
        run2.batch([
          { type: 'putInventory', entry: entry('p', 'late') },
          { type: 'clearPending', key: 'Workspace/p/late' },
        ]),
      ).rejects.toMatchObject({ code: 'locked' });
      expect((await store.inventory()).map((e) => e.key)).toEqual(['Workspace/q/other']);
    });

    it('a lock session that ended makes the next join a new seat, joined at that time', async () => {
      let now = 1_000;
      const clock = { now: () => now, sleep: async () => {} };
      const e = await openShardCoordinator(schema.url, { replica: replica('e'), clock });
      open.push(e);
      expect(e.joinedSince()).toBeUndefined();
      expect(await e.join()).toBe(true);
      now = 2_000;
      expect(await e.join()).toBe(true);
      expect(e.joinedSince()).toBe(1_000);
      await schema.query(
        `SELECT pg_terminate_backend(backend_pid) FROM "${schema.name}".shard_members WHERE replica_id = 'e'`,
      );
      now = 3_000;
      const until = Date.now() + 10_000;
      while (e.joinedSince() !== undefined && Date.now() < until) {
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(e.joinedSince()).toBeUndefined();
      expect(await e.join()).toBe(true);
      expect(e.joinedSince()).toBe(3_000);
    });

    it('a replica paused past the ttl loses its project to another and cannot write it when continued', async () => {
      const p = spawnTsx(holderScript, [schema.url, '1500', 'r']);
      paused = p.child;
      await p.waitFor(/^wrote 2$/);
      p.child.kill('SIGSTOP');
      const c = await coordinator('c');
      expect(await c.take('project:r')).toBe(false);
      // the server ends the stopped replica's lock session after idle_session_timeout (the ttl)
      const until = Date.now() + 15_000;
      while (!(await c.take('project:r')) && Date.now() < until) {
        await new Promise((r) => setTimeout(r, 200));
      }
      const mine = m.workspace('r', 'w');
      await c.view(store, c.held()).putLastApplied('Workspace/r/w', mine);
      const seen = p.lines.length;
      p.child.kill('SIGCONT');
      await p.waitFor(/^refused /, seen);
      await new Promise((r) => setTimeout(r, 300));
      expect(p.lines.slice(seen).filter((l) => l.startsWith('wrote'))).toEqual([]);
      expect((await store.lastApplied()).get('Workspace/r/w')).toEqual(mine);
    }, 60_000);
  },
);
