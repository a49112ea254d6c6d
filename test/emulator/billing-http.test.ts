import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DIALECTS, defaultDialect } from '../../src/core/dialect.js';
import { openSegment } from '../../src/emulator/billing/segments.js';
import {
  BILLING,
  bareMetalBody,
  createWorkspace,
  deployVpc,
  P,
  type PaasHarness,
  startPaas,
  userWithRole,
} from './fixtures-paas/harness.js';

const H = 3600;
const iso = (ms: number) => new Date(ms).toISOString();
// Usage answers differ by dialect (docs/dialects.md: usageRangeRequired, usageRowExtras), so this
// suite runs on both (DIALECT_SUITES): the emulator speaks PLATCTL_DIALECT's dialect.
const dialect = defaultDialect();
const rangeRequired = DIALECTS[dialect].usageRangeRequired;

/** A synthetic profile with the spec's example quantities: 2 GPUs, 8 GB RAM, 100 GB storage. */
const SYNTHETIC = {
  name: 'bill-syn',
  kind: 'baremetal',
  billable: true,
  region: 'us-central1',
  hardware: {
    cpu_count: 4,
    cpu_arch: 'x86_64',
    gpu_count: 2,
    gpu_model: 'H100',
    memory_size_gb: 8,
    storage_size_gb: 100,
    storage_type: 'block',
  },
};

describe('billing metrics over HTTP', () => {
  let h: PaasHarness;
  /** A whole second inside the billed lifetime of bm-a and bm-b. */
  let w0: number;
  const ci = `${P}/platform/workspaces/ws/computeinstances`;
  const usage = (report: 'instance' | 'profile', query: string) =>
    h.call('GET', `${BILLING}/${report}/kind/compute/usage?${query}`);
  const range = (fromS: number, toS: number) =>
    `range_from=${iso(w0 + fromS * 1000)}&range_to=${iso(w0 + toS * 1000)}`;
  const param = (entry: { parameters: { name: string; usage: string }[] }, name: string) =>
    entry.parameters.find((p) => p.name === name)?.usage;

  beforeAll(async () => {
    h = await startPaas({ dialect });
    h.ctx.store.put('profiles', SYNTHETIC.name, SYNTHETIC);
    await createWorkspace(h);
    await deployVpc(h);
    for (const n of ['bm-a', 'bm-b'])
      await h.call('POST', ci, bareMetalBody(n, { profile: 'bill-syn' }));
    await h.call('POST', ci, bareMetalBody('never-published'));
    const published = await h.now();
    for (const n of ['bm-a', 'bm-b']) await h.call('POST', `${ci}/${n}/publish`);
    w0 = Math.floor(published / 1000) * 1000 + 400_000; // 100 s after provisioning ends
    await h.advance(300 + 100 + 60 * H);
  });
  afterAll(async () => h.close());

  it('bills 100 GB × 12 h as 1200.00h and 8 GB × 48 h as 384.00h per instance', async () => {
    const r12 = await usage('instance', range(0, 12 * H));
    expect(r12.status).toBe(200);
    expect(r12.body).toMatchObject({
      kind: 'compute',
      partner_id: 'partner-emulator',
      organization_id: null,
      start_time: iso(w0),
      end_time: iso(w0 + 12 * H * 1000),
      count: 2,
      offset: 0,
      limit: 100,
    });
    const [a] = r12.body.instance_usage_data;
    expect(a).toMatchObject({
      instance_organization_id: 'org-acme',
      profile_id: 'bill-syn',
      profile_name: 'bill-syn',
      instance_name: 'bm-a',
      usage: '12.00h',
    });
    expect(a.instance_id).toMatch(/^[0-9a-f-]{36}$/);
    expect(param(a, 'storage_size')).toBe('1200.00h');
    expect(a.parameters).toContainEqual({
      name: 'storage_size',
      usage: '1200.00h',
      labels: { storage_type: 'block' },
    });
    expect(a.parameters).toContainEqual({
      name: 'gpu_count',
      usage: '24.00h',
      labels: { gpu_model: 'H100' },
    });
    expect(a.parameters).toContainEqual({
      name: 'cpu_count',
      usage: '48.00h',
      labels: { cpu_arch: 'x86_64' },
    });
    expect(a.parameters).toContainEqual({
      name: 'region',
      usage: '12.00h',
      is_label: true,
      value: 'us-central1',
    });
    const r48 = await usage('instance', range(0, 48 * H));
    expect(param(r48.body.instance_usage_data[1], 'memory_size')).toBe('384.00h');
  });

  it('bills 2 instances × 2 GPUs × 24 h as 96.00h in the profile report, and 36 s as 0.01h', async () => {
    const r = await usage('profile', range(0, 24 * H));
    expect(r.status).toBe(200);
    expect(r.body.count).toBe(1);
    const [p] = r.body.profile_usage_data;
    expect(p).toMatchObject({
      instance_organization_id: 'org-acme',
      profile_name: 'bill-syn',
      usage: '48.00h',
    });
    expect(p.instance_id).toBeUndefined();
    expect(param(p, 'gpu_count')).toBe('96.00h');
    const tiny = await usage('instance', range(0, 36));
    expect(tiny.body.instance_usage_data[0].usage).toBe('0.01h');
    expect(param(tiny.body.instance_usage_data[0], 'gpu_count')).toBe('0.02h');
    expect((await usage('instance', range(0, 17))).body.instance_usage_data[0].usage).toBe('0.00h');
  });

  it('clips to the range: nothing before success, nothing for unpublished instances', async () => {
    const before = await usage(
      'instance',
      `range_from=${iso(w0 - 10 * H * 1000)}&range_to=${iso(w0 - 200_000)}`,
    );
    expect(before.body.count).toBe(0);
    expect(before.body.instance_usage_data).toEqual([]);
    const straddle = await usage(
      'instance',
      `range_from=${iso(w0 - 10 * H * 1000)}&range_to=${iso(w0)}`,
    );
    expect(straddle.body.instance_usage_data[0].usage).toBe('0.03h'); // 100 s after success
    const names = (await usage('instance', range(0, H))).body.instance_usage_data.map(
      (d: { instance_name: string }) => d.instance_name,
    );
    expect(names).toEqual(['bm-a', 'bm-b']);
  });

  it('stops accruing when deletion is requested, and keeps reporting after the instance is gone', async () => {
    const t = await h.now();
    const wide = `range_from=${iso(w0)}&range_to=${iso(t + 1000 * 1000 * H)}`;
    await h.call('DELETE', `${ci}/bm-b`);
    const atDelete = (await usage('instance', wide)).body.instance_usage_data[1];
    await h.advance(2 * H);
    expect((await h.call('GET', `${ci}/bm-b`)).status).toBe(404);
    const later = (await usage('instance', wide)).body.instance_usage_data;
    expect(later[1]).toEqual(atDelete);
    expect(later[0].usage).not.toBe(atDelete.usage); // bm-a still running
  });

  it('filters one organization or aggregates all, and pages with a true count', async () => {
    openSegment(h.ctx, {
      instanceId: 'globex-1',
      instanceName: 'gx',
      project: 'globex-default',
      workspace: 'ws',
      organizationId: 'org-globex',
      profile: 'bmaas-h100',
      fromMs: w0,
    });
    await h.advance(H);
    const all = await usage('instance', range(0, 72 * H));
    expect(all.body.count).toBe(3);
    expect(
      all.body.instance_usage_data.map(
        (d: { instance_organization_id: string }) => d.instance_organization_id,
      ),
    ).toEqual(['org-acme', 'org-acme', 'org-globex']);
    const globex = await usage(
      'instance',
      `${range(0, 72 * H)}&instance_organization_id=org-globex`,
    );
    expect(globex.body).toMatchObject({ organization_id: 'org-globex', count: 1 });
    expect(param(globex.body.instance_usage_data[0], 'gpu_count')).toMatch(/^\d+\.\d{2}h$/);
    const page = await usage('instance', `${range(0, 72 * H)}&limit=1&offset=1`);
    expect(page.body).toMatchObject({ count: 3, offset: 1, limit: 1 });
    expect(
      page.body.instance_usage_data.map((d: { instance_name: string }) => d.instance_name),
    ).toEqual(['bm-b']);
    const profiles = await usage('profile', range(0, 72 * H));
    expect(
      profiles.body.profile_usage_data.map((d: { profile_name: string }) => d.profile_name),
    ).toEqual(['bill-syn', 'bmaas-h100']);
    const none = await usage('profile', `${range(0, 72 * H)}&instance_organization_id=org-none`);
    expect(none.body.count).toBe(0);
  });

  it.skipIf(rangeRequired)('defaults the window to the current UTC month up to now', async () => {
    const r = await usage('profile', '');
    expect(r.status).toBe(200);
    const start = new Date(r.body.start_time);
    expect(start.getUTCDate()).toBe(1);
    expect(start.getUTCHours()).toBe(0);
    expect(Date.parse(r.body.end_time)).toBeGreaterThanOrEqual(Date.parse(r.body.start_time));
    const past = await usage('profile', 'range_to=2025-03-10T12:00:00Z');
    expect(past.status).toBe(200);
    expect(past.body.start_time).toBe('2025-03-01T00:00:00.000Z');
    expect(past.body.count).toBe(0);
  });

  it.runIf(rangeRequired)('requires the window, naming the parameter missing', async () => {
    const none = await usage('profile', '');
    expect(none.status).toBe(400);
    const fromOnly = await usage('instance', `range_from=${iso(w0)}`);
    expect(fromOnly.status).toBe(400);
    expect(fromOnly.body.details[0].field).toBe('range_to');
  });

  it('answers 400 for bad timestamps, an inverted range or bad paging, naming the field', async () => {
    // every other parameter valid, so that the one named is the only one wrong (on a dialect
    // that requires the window, too)
    const bad = await usage('instance', `range_from=yesterday&range_to=${iso(w0)}`);
    expect(bad.status).toBe(400);
    expect(bad.body.details[0].field).toBe('range_from');
    const badTo = await usage('profile', `range_from=${iso(w0)}&range_to=2026-13-40T00:00:00Z`);
    expect(badTo.status).toBe(400);
    expect(badTo.body.details[0].field).toBe('range_to');
    const inverted = await usage('instance', range(10, 0));
    expect(inverted.status).toBe(400);
    expect(inverted.body.details[0].field).toBe('range_from');
    expect((await usage('instance', `${range(0, H)}&limit=5000`)).status).toBe(400);
    expect((await usage('profile', `${range(0, H)}&offset=-1`)).status).toBe(400);
  });

  it('needs a key (401) and an organization admin (403)', async () => {
    expect((await h.anonymous('GET', `${BILLING}/instance/kind/compute/usage`)).status).toBe(401);
    const key = userWithRole(h, 'pa', 'PROJECT_ADMIN');
    expect((await h.callAs(key, 'GET', `${BILLING}/profile/kind/compute/usage`)).status).toBe(403);
  });
});
