import { rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { converge, type World, world, writes } from './harness.js';

let w: World;
beforeEach(async () => {
  w = await world();
});
afterEach(async () => {
  await w.close();
});

describe('apply examples/manifests/ against the emulator', () => {
  it('converges, then a plan has no changes and sends no write', async () => {
    const results = await converge(w);
    expect(results.map((r) => r.status)).toEqual(['applied', 'applied', 'in-sync']);
    const before = await w.last();
    const plan = await w.run({ mode: 'plan' });
    expect(plan.status).toBe('planned');
    expect(plan.changes).toBe(false);
    const after = await w.journal(before);
    expect(after.length).toBeGreaterThan(0);
    expect(writes(after)).toEqual([]);
  });

  it('changes only the resource whose field changed', async () => {
    await converge(w);
    const file = join(w.manifests, '10-platform.yaml');
    const { readFileSync } = await import('node:fs');
    writeFileSync(
      file,
      readFileSync(file, 'utf8').replace(
        'displayName: Shared services',
        'displayName: Shared platform services',
      ),
    );
    const plan = await w.run({ mode: 'plan' });
    const changed = plan.plan!.actions.filter((a) => a.type !== 'noop');
    expect(changed.map((a) => a.id)).toEqual(['Workspace/platform/shared-services#update']);
    const before = await w.last();
    expect((await w.run({ mode: 'apply' })).status).toBe('applied');
    expect(writes(await w.journal(before)).map((e) => `${e.method} ${e.path}`)).toEqual([
      'POST /apis/paas.envmgmt.io/v1/projects/platform/workspaces',
    ]);
  });

  it('with --prune deletes only the resource whose file was removed', async () => {
    const extra = join(w.manifests, '40-extra.yaml');
    writeFileSync(
      extra,
      'apiVersion: paas.envmgmt.io/v1\nkind: Workspace\nmetadata:\n  name: scratch\n  project: platform\n',
    );
    await converge(w);
    rmSync(extra);
    const unpruned = await w.run({ mode: 'plan' });
    expect(unpruned.changes).toBe(false);
    expect(unpruned.plan!.diagnostics.map((d) => d.message)).toContainEqual(
      expect.stringMatching(/no longer in git; run with --prune/),
    );
    const before = await w.last();
    const r = await w.run({ mode: 'apply', prune: true });
    expect(r.status).toBe('applied');
    expect(writes(await w.journal(before)).map((e) => `${e.method} ${e.path}`)).toEqual([
      'DELETE /apis/paas.envmgmt.io/v1/projects/platform/workspaces/scratch',
    ]);
    expect((await w.run({ mode: 'plan', prune: true })).changes).toBe(false);
  });

  it('sends nothing at all for invalid manifests', async () => {
    writeFileSync(
      join(w.manifests, '50-bad.yaml'),
      'apiVersion: paas.envmgmt.io/v1\nkind: Workspace\nmetadata: {}\n',
    );
    const r = await w.run({ mode: 'apply' });
    expect(r.status).toBe('invalid');
    expect(r.diagnostics.length).toBeGreaterThan(0);
    expect(await w.journal(0)).toEqual([]);
  });

  it('orders VPC deploy before compute and CAPI before CAPG, one request each', async () => {
    await converge(w);
    const journal = await w.journal(0);
    const idx = (pred: (e: (typeof journal)[number]) => boolean) => journal.findIndex(pred);
    const publish = idx(
      (e) =>
        e.method === 'POST' && e.path.endsWith('/projects/platform/services/vpc-platform/publish'),
    );
    const firstCompute = idx(
      (e) =>
        e.method === 'POST' &&
        /\/projects\/platform\/workspaces\/[^/]+\/computeinstances$/.test(e.path),
    );
    expect(publish).toBeGreaterThanOrEqual(0);
    expect(firstCompute).toBeGreaterThan(publish);
    // a read between them saw the VPC deployed (the provider waits for it)
    const reads = journal
      .slice(publish, firstCompute)
      .filter((e) => e.method === 'GET' && e.path.endsWith('/services/vpc-platform'));
    expect(reads.length).toBeGreaterThan(0);
    const controllers = w.operations.filter((o) => /CAP[IG]/i.test(o) && /^2/.test(o));
    expect(controllers).toHaveLength(2);
    expect(controllers[0]).toMatch(/CAPI/i);
    expect(controllers[1]).toMatch(/CAPG/i);
  });
});
