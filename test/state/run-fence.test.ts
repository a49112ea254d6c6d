import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openState, type StateStore } from '../../src/state/index.js';
import { postgresUrl, type TestSchema, testSchema } from '../helpers/postgres.js';
import { m } from '../reconcile/manifests.js';

describe.skipIf(!postgresUrl)('fencing per run on PostgreSQL', () => {
  let schema: TestSchema;
  let store: StateStore;
  beforeAll(async () => {
    schema = await testSchema('run_fence');
    store = await openState(schema.url);
  });
  afterAll(async () => {
    await store?.close();
    await schema?.drop();
  });

  it("refuses a run's writes once the lease it started under is lost, even after this process takes it again", async () => {
    const holder = { id: 'controller-1', pid: 1, host: 'test' };
    const first = await store.acquire({ holder, heartbeat: false });
    const run1 = store.pinned!();
    await run1.putLastApplied('Workspace/p/a', m.workspace('p', 'a'));
    // the lease is lost (here released) and taken again by the same process: a new epoch
    await first.release();
    await store.acquire({ holder, heartbeat: false });
    await expect(
      run1.putLastApplied('Workspace/p/a', m.workspace('p', 'late')),
    ).rejects.toMatchObject({
      code: 'locked',
    });
    await expect(
      run1.batch([{ type: 'removeLastApplied', key: 'Workspace/p/a' }]),
    ).rejects.toMatchObject({ code: 'locked' });
    // a run that starts now writes under the new epoch
    const run2 = store.pinned!();
    await run2.putLastApplied('Workspace/p/b', m.workspace('p', 'b'));
    expect([...(await store.lastApplied()).keys()]).toEqual(['Workspace/p/a', 'Workspace/p/b']);
    expect((await store.lastApplied()).get('Workspace/p/a')).toEqual(m.workspace('p', 'a'));
    await run2.close(); // closes nothing: the store still answers
    expect((await store.inventory()).length).toBe(0);
  });
});
