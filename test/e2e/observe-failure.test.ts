import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { converge, type World, world } from './harness.js';

let w: World;
beforeEach(async () => {
  w = await world();
});
afterEach(async () => {
  await w.close();
});

/** POSTs that create a resource: the collection endpoints. */
const CREATE =
  /^\/(auth\/v1\/users\/|apis\/[^/]+\/v\d\/projects\/[^/]+\/(services|workspaces|clusters|workspaces\/[^/]+\/computeinstances))$/;

describe('a read that keeps failing during observe', () => {
  it('fails only the resources it was for; the rest is planned and applied', async () => {
    // every list of ml-research's workspaces answers 500, retries included
    await w.fault({
      path: '^/apis/paas.envmgmt.io/v1/projects/ml-research/workspaces$',
      method: 'GET',
      status: 500,
    });
    const r = await w.run({ mode: 'apply' });
    expect(r.status).toBe('failed');
    const failed = Object.entries(r.outcomes ?? {}).filter(([, o]) => o.status === 'failed');
    expect(failed.map(([id]) => id).sort()).toEqual([
      'Workspace/ml-research/experiments#observe',
      'Workspace/ml-research/training#observe',
    ]);
    expect(failed[0]![1]).toMatchObject({ error: expect.stringContaining('500') });
    // what lives in the unread workspaces waits; everything else was done
    const deferred = r.plan!.diagnostics.filter((d) => d.message.startsWith('deferred'));
    expect(deferred.map((d) => d.key)).toContain('Workspace/ml-research/experiments');
    expect(deferred.some((d) => d.key.startsWith('ComputeInstance/ml-research/'))).toBe(true);
    const done = Object.entries(r.outcomes ?? {}).filter(([, o]) => o.status === 'succeeded');
    expect(done.some(([id]) => id.startsWith('Workspace/platform/'))).toBe(true);

    await w.clearFaults();
    const rest = await converge(w);
    expect(rest.at(-1)?.status).toBe('in-sync');
    const creates = (await w.journal(0)).filter(
      (e) => e.method === 'POST' && CREATE.test(e.path) && e.status >= 200 && e.status < 300,
    );
    expect(creates).toHaveLength(12);
  }, 60_000);
});
