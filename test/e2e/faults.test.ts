import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { converge, type World, world } from './harness.js';

let w: World;
beforeEach(async () => {
  w = await world();
});
afterEach(async () => {
  await w.close();
});

/** POSTs that create a resource: the collection endpoints, not verbs on one resource. */
const CREATE =
  /^\/(auth\/v1\/users\/|apis\/[^/]+\/v\d\/projects\/[^/]+\/(services|workspaces|clusters|workspaces\/[^/]+\/computeinstances))$/;

describe('apply through injected faults', () => {
  it('converges with 500s, 429s, latency and dropped connections, creating nothing twice', async () => {
    await w.fault({ path: '^/(apis|auth|v2)/.*', status: 500, rate: 0.15 });
    await w.fault({ path: '^/(apis|auth|v2)/.*', status: 429, retryAfter: 0, rate: 0.1 });
    await w.fault({ path: '^/(apis|auth|v2)/.*', latencyMs: 20, rate: 0.2 });
    await w.fault({ path: '^/(apis|auth)/.*', method: 'POST', drop: true, count: 4 });
    const results = await converge(w, {}, 10);
    expect(results.at(-1)?.status).toBe('in-sync');
    await w.clearFaults();
    const plan = await w.run({ mode: 'plan' });
    expect(plan.changes).toBe(false);
    const creates = (await w.journal(0)).filter(
      (e) => e.method === 'POST' && CREATE.test(e.path) && e.status >= 200 && e.status < 300,
    );
    // 3 users, 2 VPCs, 3 workspaces, 3 instances, 1 cluster: one successful create each
    expect(creates).toHaveLength(12);
    const injected = (await w.journal(0)).filter(
      (e) => e.status === 500 || e.status === 429 || e.status === 0,
    );
    expect(injected.length).toBeGreaterThan(0);
  });
});
