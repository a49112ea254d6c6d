import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { instanceSeconds, profileUsageData } from '../../src/emulator/billing/report.js';
import type { UsageSegment } from '../../src/emulator/billing/segments.js';
import { createdAtIso, nextCreatedAtUs, pageOf } from '../../src/emulator/paas/common.js';
import { paasHandlers } from '../../src/emulator/paas/handlers.js';
import { fakeContext, request } from './fixtures-paas/fake-context.js';

const H = 3600;

describe('paas handlers on a fake context', () => {
  it('exports a handler for every operation of the fragment', async () => {
    const { parse } = await import('yaml');
    const { readFileSync } = await import('node:fs');
    const doc = parse(
      readFileSync(new URL('../../api/fragments/paas.yaml', import.meta.url), 'utf8'),
    );
    const ids = Object.values(doc.paths as Record<string, Record<string, { operationId?: string }>>)
      .flatMap((item) => Object.values(item).map((op) => op.operationId))
      .filter((id): id is string => typeof id === 'string');
    expect(new Set(Object.keys(paasHandlers))).toEqual(new Set(ids));
  });

  /** The envelope every PaaS body carries (apiVersion, kind, metadata). */
  const paas = (kind: string, metadata: Record<string, string>) => ({
    apiVersion: 'paas.envmgmt.io/v1',
    kind,
    metadata,
  });

  it('walks a service and an instance through their states on the clock alone', () => {
    const ctx = fakeContext();
    const h = paasHandlers;
    const svc = { projectName: 'platform', serviceName: 'vpc' };
    h.createService!(
      request(
        { projectName: 'platform' },
        {
          ...paas('Service', { name: 'vpc', project: 'platform' }),
          spec: { serviceProfile: { name: 'vpc' } },
        },
      ),
      ctx,
    );
    h.publishService!(request(svc), ctx);
    ctx.tick(30);
    expect((h.getService!(request(svc), ctx) as { body: { status: unknown } }).body.status).toEqual(
      { status: 'deployed' },
    );
    h.upsertWorkspace!(
      request({ projectName: 'platform' }, paas('Workspace', { name: 'ws', project: 'platform' })),
      ctx,
    );
    const path = { project: 'platform', workspace: 'ws', instanceName: 'bm' };
    const spec = {
      computeType: 'baremetal',
      computeProfile: { name: 'bmaas-l40s' },
      variables: [],
    };
    expect(
      h.upsertComputeInstance!(
        request(path, {
          ...paas('ComputeInstance', { name: 'bm', project: 'platform', workspace: 'ws' }),
          spec,
        }),
        ctx,
      ),
    ).toMatchObject({ status: 201 });
    const status = () =>
      (h.getComputeInstance!(request(path), ctx) as { body: { status: { status: string } } }).body
        .status.status;
    h.publishComputeInstance!(request(path), ctx);
    ctx.tick(299);
    expect(status()).toBe('provisioning');
    ctx.tick(1);
    expect(status()).toBe('success');
    h.deleteComputeInstance!(request(path), ctx);
    ctx.tick(60);
    expect(() => h.getComputeInstance!(request(path), ctx)).toThrow(
      expect.objectContaining({ status: 404 }),
    );
    expect(ctx.store.list('computeinstances')).toEqual([]);
    const [segment] = ctx.store.list<UsageSegment>('usage');
    expect(segment!.toMs! - segment!.fromMs).toBe(0); // deleted the moment it reached success
  });

  it('gives records created within one millisecond distinct, increasing creation times', () => {
    const ctx = fakeContext();
    const stamps: number[] = [];
    for (const name of ['a', 'b', 'c']) {
      const createdAtUs = nextCreatedAtUs(ctx, 'workspaces');
      ctx.store.put('workspaces', `platform/${name}`, { name, createdAtUs });
      stamps.push(createdAtUs);
    }
    expect(stamps).toEqual([0, 1, 2].map((i) => Date.UTC(2026, 0, 1) * 1000 + i));
    expect(createdAtIso({ name: 'c', createdAtUs: stamps[2]! })).toBe(
      '2026-01-01T00:00:00.000002Z',
    );
    ctx.tick(1.5);
    expect(nextCreatedAtUs(ctx, 'workspaces')).toBe((Date.UTC(2026, 0, 1) + 1500) * 1000);
  });

  it('pages with a true count and never more than limit items', () => {
    fc.assert(
      fc.property(fc.nat(30), fc.nat(40), fc.nat(40), fc.boolean(), (n, limit, offset, asc) => {
        const records = Array.from({ length: n }, (_, i) => ({
          name: `r${i}`,
          createdAtUs: (i * 7) % 11,
        }));
        const { count, items } = pageOf(records, { limit, offset, order: asc ? 'ASC' : 'DESC' });
        expect(count).toBe(n);
        expect(items.length).toBe(Math.max(0, Math.min(limit, n - offset)));
        for (let i = 1; i < items.length; i++) {
          const d = items[i]!.createdAtUs - items[i - 1]!.createdAtUs;
          expect(asc ? d >= 0 : d <= 0).toBe(true);
        }
      }),
    );
  });
});

describe('billing report lines (pure)', () => {
  const seg = (id: string, fromS: number, toS: number | null, org = 'org-a'): UsageSegment => ({
    instanceId: id,
    instanceName: id,
    project: 'p',
    workspace: 'w',
    organizationId: org,
    profile: 'two-gpu',
    seq: 1,
    fromMs: fromS * 1000,
    toMs: toS === null ? null : toS * 1000,
  });
  const profile = {
    name: 'two-gpu',
    kind: 'baremetal' as const,
    billable: true,
    region: 'r',
    hardware: {
      cpu_count: 1,
      cpu_arch: 'arm64',
      gpu_count: 2,
      gpu_model: 'H100',
      memory_size_gb: 8,
      storage_size_gb: 100,
      storage_type: 'block',
    },
  };

  it('sums 2 instances × 2 GPUs × 24 h into 96.00h for their profile', () => {
    const rows = instanceSeconds([seg('i1', 0, 24 * H), seg('i2', 0, null)], {
      fromMs: 0,
      toMs: 10 ** 12,
      nowMs: 24 * H * 1000,
    });
    const [line] = profileUsageData(rows, () => profile);
    expect(line!.usage).toBe('48.00h');
    expect(line!.parameters.find((p) => p.name === 'gpu_count')!.usage).toBe('96.00h');
    expect(line!.parameters.find((p) => p.name === 'memory_size')!.usage).toBe('384.00h');
  });

  it('filters by organization and drops instances without time in the window', () => {
    const segments = [seg('i1', 0, 100), seg('i2', 500, 600), seg('i3', 0, 100, 'org-b')];
    const window = { fromMs: 0, toMs: 200_000, nowMs: 10 ** 9 };
    expect(instanceSeconds(segments, window).map((r) => r.instanceId)).toEqual(['i1', 'i3']);
    expect(
      instanceSeconds(segments, { ...window, organizationId: 'org-b' }).map((r) => r.seconds),
    ).toEqual([100]);
  });
});
