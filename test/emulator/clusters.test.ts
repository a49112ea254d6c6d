import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterBody, type Harness, INFRA, startHarness } from './harness.js';

const V3 = { header: 'X-API-KEY' };
const C = `${INFRA}/platform/clusters`;

describe('v3 clusters and the controller deployment update', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      transitionSeconds: { 'cluster-provision': 600, 'cluster-delete': 120 },
    });
  });
  afterAll(() => h.close());

  it('accepts only X-API-KEY on v3 endpoints', async () => {
    expect((await h.call('GET', C, undefined, V3)).status).toBe(200);
    expect((await h.call('GET', C, undefined, { header: 'x-api-key' })).status).toBe(200);
    const old = await h.call('GET', C, undefined, { header: 'X-SERVICE-API-KEYID' });
    expect(old.status).toBe(401);
  });

  it('creates (201 provisioning), becomes ready on the clock, updates (200) and reads', async () => {
    const created = await h.call('POST', C, clusterBody('gke-a'), V3);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ apiVersion: 'infra.k8smgmt.io/v3', kind: 'Cluster' });
    expect(created.body.metadata).toMatchObject({ name: 'gke-a', project: 'platform' });
    expect(created.body.status.status).toBe('provisioning');
    await h.advance(599);
    expect((await h.call('GET', `${C}/gke-a`, undefined, V3)).body.status.status).toBe(
      'provisioning',
    );
    await h.advance(1);
    const ready = await h.call('GET', `${C}/gke-a`, undefined, V3);
    expect(ready.status).toBe(200);
    expect(ready.body.status.status).toBe('ready');
    const changed = clusterBody('gke-a');
    (changed.metadata as { description: string }).description = 'changed';
    const updated = await h.call('POST', C, changed, V3);
    expect(updated.status).toBe(200);
    expect(updated.body.metadata.description).toBe('changed');
    expect(updated.body.metadata.id).toBe(created.body.metadata.id);
    expect(updated.body.status.status).toBe('ready');
  });

  it('lists with a true count, newest first, paged', async () => {
    for (const name of ['gke-b', 'gke-c']) {
      expect((await h.call('POST', C, clusterBody(name), V3)).status).toBe(201);
      await h.advance(1);
    }
    const page = await h.call('GET', `${C}?limit=2`, undefined, V3);
    expect(page.body.kind).toBe('ClusterList');
    expect(page.body.metadata).toMatchObject({ count: 3, limit: 2, offset: 0 });
    expect(page.body.items.map((c: { metadata: { name: string } }) => c.metadata.name)).toEqual([
      'gke-c',
      'gke-b',
    ]);
    const asc = await h.call('GET', `${C}?order=ASC&offset=1`, undefined, V3);
    expect(asc.body.items.map((c: { metadata: { name: string } }) => c.metadata.name)).toEqual([
      'gke-b',
      'gke-c',
    ]);
    expect((await h.call('GET', `${INFRA}/nope/clusters`, undefined, V3)).status).toBe(404);
  });

  it('validates the body with the field named and stores nothing', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [clusterBody('Bad_Name'), 'metadata.name'],
      [clusterBody('v1', { type: 'Eks' }), 'spec.type'],
      [clusterBody('v2', { cloudCredentials: 'other-creds' }), 'spec.cloudCredentials'],
      [clusterBody('v3', { blueprint: { name: 'nope' } }), 'spec.blueprint.name'],
      [
        clusterBody('v4', { blueprint: { name: 'ml-stack', version: 'v2.0.0' } }),
        'spec.blueprint.version',
      ],
      [{ ...clusterBody('v5'), metadata: { name: 'v5', project: 'default' } }, 'metadata.project'],
    ];
    for (const [body, field] of cases) {
      const r = await h.call('POST', C, body, V3);
      expect(r.status, field).toBe(400);
      expect(
        r.body.details.map((d: { field: string }) => d.field),
        field,
      ).toContain(field);
    }
    const pools = clusterBody('v6');
    const spec = pools.spec as { config: { nodePools: { size: unknown }[] } };
    spec.config.nodePools[0]!.size = 'two';
    const r = await h.call('POST', C, pools, V3);
    expect(r.body.details[0].field).toBe('spec.config.nodePools[0].size');
    const names = (await h.call('GET', `${C}?limit=1000`, undefined, V3)).body.items.map(
      (c: { metadata: { name: string } }) => c.metadata.name,
    );
    expect(names.filter((n: string) => n.startsWith('v'))).toEqual([]);
  });

  it('updates the controller with exactly one version: 202 text; 400 both or neither; 404; 409 not ready', async () => {
    const path = (c: string) => `${C}/${c}/updatecontrollerdeployment`;
    const ok = await h.call('POST', path('gke-a'), { capiVersion: 'v1.7.0' }, V3);
    expect(ok.status).toBe(202);
    expect(ok.headers.get('content-type')).toMatch(/^text\/plain/);
    expect(ok.text).toMatch(/CAPI/);
    const viaSample = await h.call(
      'POST',
      path('gke-a'),
      { capgVersion: 'v1.6.0' },
      { header: 'X-SERVICE-API-KEYID' },
    );
    expect(viaSample.status).toBe(202);
    const both = await h.call('POST', path('gke-a'), { capiVersion: 'a', capgVersion: 'b' }, V3);
    expect(both.status).toBe(400);
    const neither = await h.call('POST', path('gke-a'), {}, V3);
    expect(neither.status).toBe(400);
    expect(neither.body.details[0].field).toBe('capiVersion');
    expect((await h.call('POST', path('gke-zz'), { capiVersion: 'a' }, V3)).status).toBe(404);
    expect((await h.call('POST', C, clusterBody('gke-new'), V3)).status).toBe(201);
    expect((await h.call('POST', path('gke-new'), { capiVersion: 'a' }, V3)).status).toBe(409);
    // the API has no read of controller versions: look in the store
    const stored = h.emu.store.get<{ controllers: unknown }>('clusters', 'platform/gke-a');
    expect(stored?.controllers).toEqual({ capiVersion: 'v1.7.0', capgVersion: 'v1.6.0' });
    const read = await h.call('GET', `${C}/gke-a`, undefined, V3);
    expect(read.body.status).toEqual({ status: 'ready' });
  });

  it('deletes asynchronously: 202, deleting, then 404 after cluster-delete', async () => {
    const del = await h.call('DELETE', `${C}/gke-b`, undefined, V3);
    expect(del.status).toBe(202);
    expect(del.body.status).toBe('Accepted');
    expect((await h.call('GET', `${C}/gke-b`, undefined, V3)).body.status.status).toBe('deleting');
    expect((await h.call('POST', C, clusterBody('gke-b'), V3)).status).toBe(409);
    await h.advance(120);
    expect((await h.call('GET', `${C}/gke-b`, undefined, V3)).status).toBe(404);
    expect((await h.call('DELETE', `${C}/gke-b`, undefined, V3)).status).toBe(404);
  });
});
