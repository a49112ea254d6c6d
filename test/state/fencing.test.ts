import type { ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openState } from '../../src/state/index.js';
import { postgresUrl, type TestSchema, testSchema } from '../helpers/postgres.js';
import { spawnTsx } from '../helpers/process.js';
import { m } from '../reconcile/manifests.js';

const leaderScript = fileURLToPath(new URL('./fixtures/pg-leader.ts', import.meta.url));

/** Starts the leader script with the lease ttl `ttlMs`. */
const startLeader = (url: string, ttlMs: number) => spawnTsx(leaderScript, [url, String(ttlMs)]);

describe.skipIf(!postgresUrl)('fencing a paused leader (real processes, SIGSTOP)', () => {
  let schema: TestSchema;
  let leader: ChildProcess | undefined;
  beforeAll(async () => {
    schema = await testSchema('fencing');
  });
  afterAll(async () => {
    leader?.kill('SIGKILL');
    await schema?.drop();
  });

  it('a standby takes over from a stopped leader, which cannot write once continued', async () => {
    const a = startLeader(schema.url, 1500);
    leader = a.child;
    await a.waitFor(/^wrote 2$/);
    a.child.kill('SIGSTOP');
    const b = await openState(schema.url);
    try {
      // the server ends the stopped leader's lock session after idle_session_timeout (the ttl)
      const lease = await b.acquire({
        holder: { id: 'standby', pid: 2, host: 'test' },
        waitMs: 15_000,
        heartbeat: false,
      });
      expect((await b.leaseHolder())?.id).toBe('standby');
      const mine = m.workspace('p', 'standby');
      await b.putLastApplied('fenced', mine);
      const seen = a.lines.length;
      a.child.kill('SIGCONT');
      await a.waitFor(/^refused .*lost/, seen);
      await new Promise((r) => setTimeout(r, 300));
      expect(a.lines.slice(seen).filter((l) => l.startsWith('wrote'))).toEqual([]);
      expect((await b.lastApplied()).get('fenced')).toEqual(mine);
      await lease.release();
    } finally {
      await b.close();
    }
  }, 60_000);
});
