import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { clusterBody, type Harness, INFRA, startHarness } from './harness.js';

const SYNC = '/v2/scheduler/project/prj-platform/cluster/gke-bp/publish/blueprint';
const VERSION = (v: string, action: string) =>
  `/v2/config/project/prj-platform/blueprint/ml-stack/version/${v}/${action}`;
const sync = (extra: Record<string, unknown> = {}) => ({
  metadata: { forceSync: true },
  blueprintName: 'ml-stack',
  blueprintVersion: 'v1.1.0',
  ...extra,
});

describe('blueprints: force sync and version enable/disable', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
    const r = await h.call('POST', `${INFRA}/platform/clusters`, clusterBody('gke-bp'), {
      header: 'X-API-KEY',
    });
    expect(r.status).toBe(201);
  });
  afterAll(() => h.close());

  // the API has no read of the published blueprint: look in the store
  const published = () =>
    h.emu.store.get<{ blueprint: { forceSyncedAddons: string[] } }>('clusters', 'platform/gke-bp')!
      .blueprint;

  it('publishes and force syncs every add-on when none are listed (202), or only the listed ones', async () => {
    const all = await h.call('POST', SYNC, sync(), { header: 'x-api-key' });
    expect(all.status).toBe(202);
    expect(all.body.status).toBe('accepted');
    expect(published()).toMatchObject({
      name: 'ml-stack',
      version: 'v1.1.0',
      forceSyncedAddons: ['gpu-operator', 'prometheus', 'ingress-nginx'],
    });
    const some = await h.call('POST', SYNC, sync({ addons: ['prometheus'] }));
    expect(some.status).toBe(202);
    expect(published().forceSyncedAddons).toEqual(['prometheus']);
  });

  it('answers 400 for an unknown add-on, blueprint or version and a missing field; 404 for an unknown cluster', async () => {
    const addon = await h.call('POST', SYNC, sync({ addons: ['prometheus', 'nope'] }));
    expect(addon.status).toBe(400);
    expect(addon.body.details[0].field).toBe('addons[1]');
    expect(
      (await h.call('POST', SYNC, sync({ blueprintName: 'nope' }))).body.details[0].field,
    ).toBe('blueprintName');
    expect(
      (await h.call('POST', SYNC, sync({ blueprintVersion: 'v9' }))).body.details[0].field,
    ).toBe('blueprintVersion');
    const missing = await h.call('POST', SYNC, {
      blueprintName: 'ml-stack',
      blueprintVersion: 'v1.1.0',
    });
    expect(missing.status).toBe(400);
    expect(missing.body.details[0].field).toBe('metadata');
    const noCluster = await h.call('POST', SYNC.replace('gke-bp', 'gke-none'), sync());
    expect(noCluster.status).toBe(404);
    const noProject = await h.call('POST', SYNC.replace('prj-platform', 'prj-none'), sync());
    expect(noProject.status).toBe(404);
    expect((await h.call('POST', SYNC, sync(), { key: null })).status).toBe(401);
  });

  it('enables and disables versions; a disabled version cannot be published', async () => {
    const disabled = await h.call('POST', SYNC, sync({ blueprintVersion: 'v2.0.0' }));
    expect(disabled.status).toBe(400);
    expect(disabled.body.message).toMatch(/disabled/);
    const enable = await h.call('POST', VERSION('v2.0.0', 'enable'), {});
    expect(enable.status).toBe(200);
    expect(typeof enable.body.message).toBe('string');
    expect((await h.call('POST', SYNC, sync({ blueprintVersion: 'v2.0.0' }))).status).toBe(202);
    expect(
      (await h.call('POST', VERSION('v1.1.0', 'disable'), undefined, { header: 'X-API-KEY' }))
        .status,
    ).toBe(200);
    expect((await h.call('POST', SYNC, sync())).status).toBe(400);
    expect((await h.call('POST', VERSION('v1.1.0', 'enable'))).status).toBe(200);
    expect((await h.call('POST', SYNC, sync())).status).toBe(202);
  });

  it('answers 404 for an unknown project, blueprint or version, and 403 without a role', async () => {
    expect((await h.call('POST', VERSION('v9.9.9', 'enable'), {})).status).toBe(404);
    expect(
      (await h.call('POST', VERSION('v1.0.0', 'enable').replace('ml-stack', 'nope'), {})).status,
    ).toBe(404);
    expect(
      (await h.call('POST', VERSION('v1.0.0', 'enable').replace('prj-platform', 'prj-x'), {}))
        .status,
    ).toBe(404);
    const u = await h.newUser('bp@acme.example');
    expect((await h.call('POST', VERSION('v1.0.0', 'disable'), {}, { key: u.key })).status).toBe(
      403,
    );
    expect((await h.call('POST', SYNC, sync(), { key: u.key })).status).toBe(403);
  });
});
