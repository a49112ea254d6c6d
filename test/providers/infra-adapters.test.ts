import { describe, expect, it } from 'vitest';
import { blueprintPublishProvider } from '../../src/providers/blueprint-publish.js';
import { blueprintVersionProvider } from '../../src/providers/blueprint-version.js';
import { clusterProvider } from '../../src/providers/cluster.js';
import { clusterControllersProvider } from '../../src/providers/cluster-controllers.js';
import { act, cluster, controllers, loaded, publish, version } from './fixtures.js';
import { INFRA, testClient, testPorts, useNock, v1, v3 } from './helpers.js';

useNock();

describe('cluster adapter (v3)', () => {
  it('observes through the list with X-API-KEY and plans nothing when in sync', async () => {
    const scope = v3()
      .get(`${INFRA}/projects/ml/clusters`)
      .query(true)
      .reply(200, {
        kind: 'ClusterList',
        metadata: { count: 1 },
        items: [
          {
            ...cluster(),
            metadata: { name: 'gke-1', project: 'ml', id: 'c1' },
            status: { status: 'ready' },
          },
        ],
      });
    const [live] = await clusterProvider.observe(
      { desired: [loaded(cluster())], inventory: [], projects: ['ml'] },
      testPorts(testClient()),
    );
    expect(scope.isDone()).toBe(true);
    expect(live).toMatchObject({ key: 'Cluster/ml/gke-1', status: 'ready' });
    expect(clusterProvider.plan({ key: live!.key, desired: cluster(), live: live! })).toEqual([]);
    const [update] = clusterProvider.plan({ key: live!.key, desired: cluster(5), live: live! });
    expect(update).toMatchObject({
      type: 'update',
      changes: [{ op: 'replace', path: '/spec/config/nodePools/0/size', before: 3, after: 5 }],
    });
  });

  it('creates and updates with one POST, deletes and waits until gone', async () => {
    const scope = v3()
      .post(`${INFRA}/projects/ml/clusters`, (b) => b.spec.config.nodePools[0].size === 3)
      .reply(201, {})
      .delete(`${INFRA}/projects/ml/clusters/gke-1`)
      .reply(202, {})
      .get(`${INFRA}/projects/ml/clusters/gke-1`)
      .reply(404, {});
    const ports = testPorts(testClient());
    await clusterProvider.execute(
      act(clusterProvider.plan({ key: 'Cluster/ml/gke-1', desired: cluster() })[0]!),
      ports,
    );
    const live = {
      key: 'Cluster/ml/gke-1',
      ref: { kind: 'Cluster' as const, name: 'gke-1', project: 'ml' },
      body: {},
    };
    await clusterProvider.execute(act(clusterProvider.plan({ key: live.key, live })[0]!), ports);
    expect(scope.isDone()).toBe(true);
  });
});

describe('cluster controllers adapter', () => {
  it('sends exactly one field per request, CAPI and CAPG as separate actions', async () => {
    const actions = clusterControllersProvider.plan({
      key: 'ClusterControllers/ml/gke-1',
      desired: controllers('v1.6.0', 'v1.7.0'),
      lastApplied: controllers('v1.5.0', 'v1.7.0'),
    });
    expect(actions).toMatchObject([
      {
        type: 'controller-update',
        component: 'capi',
        version: 'v1.6.0',
        reason: { code: 'changed' },
      },
    ]);
    const both = clusterControllersProvider.plan({
      key: 'k',
      desired: controllers('v1.6.0', 'v1.8.0'),
    });
    expect(both.map((a) => a.type === 'controller-update' && a.component)).toEqual([
      'capi',
      'capg',
    ]);
    const scope = v3()
      .post(`${INFRA}/projects/ml/clusters/gke-1/updatecontrollerdeployment`, {
        capiVersion: 'v1.6.0',
      })
      .reply(202, 'accepted', { 'content-type': 'text/plain' })
      .post(`${INFRA}/projects/ml/clusters/gke-1/updatecontrollerdeployment`, {
        capgVersion: 'v1.8.0',
      })
      .reply(202, 'accepted', { 'content-type': 'text/plain' });
    for (const a of both) await clusterControllersProvider.execute(act(a), testPorts(testClient()));
    expect(scope.isDone()).toBe(true);
  });
});

describe('blueprint adapters', () => {
  it("sends spec.forceSync: false as the API's metadata.forceSync (publish without syncing)", async () => {
    const scope = v1()
      .post('/v2/scheduler/project/id-ml/cluster/gke-1/publish/blueprint', {
        metadata: { forceSync: false },
        blueprintName: 'ml-stack',
        blueprintVersion: 'v1.1.0',
      })
      .reply(202, { status: 'accepted' });
    const desired = publish('v1.1.0');
    const [sync] = blueprintPublishProvider.plan({
      key: 'k',
      desired: { ...desired, spec: { ...desired.spec, forceSync: false } },
    });
    await blueprintPublishProvider.execute(act(sync!), testPorts(testClient()));
    expect(scope.isDone()).toBe(true);
  });

  it('force-syncs through the scheduler path with the project id', async () => {
    const scope = v1()
      .post('/v2/scheduler/project/id-ml/cluster/gke-1/publish/blueprint', {
        metadata: { forceSync: true },
        blueprintName: 'ml-stack',
        blueprintVersion: 'v1.1.0',
        addons: ['gpu-operator'],
      })
      .reply(202, { status: 'accepted' });
    const [sync] = blueprintPublishProvider.plan({
      key: 'k',
      desired: publish('v1.1.0', ['gpu-operator']),
      lastApplied: publish('v1.0.0'),
    });
    await blueprintPublishProvider.execute(act(sync!), testPorts(testClient()));
    expect(scope.isDone()).toBe(true);
  });

  it('enables and disables a version by project id', async () => {
    const scope = v1()
      .post('/v2/config/project/id-ml/blueprint/ml-stack/version/v2.0.0/disable', {})
      .reply(200, { message: 'ok' });
    const [disable] = blueprintVersionProvider.plan({
      key: 'k',
      desired: version(false),
      lastApplied: version(true),
    });
    expect(disable).toMatchObject({
      type: 'disable-version',
      changes: [{ op: 'replace', before: true, after: false }],
    });
    await blueprintVersionProvider.execute(act(disable!), testPorts(testClient()));
    expect(scope.isDone()).toBe(true);
  });
});

describe('cluster controllers on a cluster still provisioning', () => {
  it('waits for a cluster that is not ready yet (409), then sends the update again', async () => {
    const [capi] = clusterControllersProvider.plan({ key: 'k', desired: controllers('v1.6.0') });
    const scope = v3()
      .post(`${INFRA}/projects/ml/clusters/gke-1/updatecontrollerdeployment`, {
        capiVersion: 'v1.6.0',
      })
      .reply(409, { code: 'conflict', message: 'cluster gke-1 is provisioning, not ready' })
      .get(`${INFRA}/projects/ml/clusters/gke-1`)
      .reply(200, { status: { status: 'provisioning' } })
      .get(`${INFRA}/projects/ml/clusters/gke-1`)
      .reply(200, { status: { status: 'ready' } })
      .post(`${INFRA}/projects/ml/clusters/gke-1/updatecontrollerdeployment`, {
        capiVersion: 'v1.6.0',
      })
      .reply(202, 'accepted', { 'content-type': 'text/plain' });
    const ports = testPorts(testClient());
    await clusterControllersProvider.execute(act(capi!), ports);
    expect(scope.isDone()).toBe(true);
    expect(ports.lines).toEqual(['waiting for cluster ml/gke-1: provisioning, 0s']);
  });

  it("reads the vendor's status shape (commonStatus) while it waits", async () => {
    const [capi] = clusterControllersProvider.plan({ key: 'k', desired: controllers('v1.6.0') });
    const common = (conditionType: string) => ({
      status: { commonStatus: { conditionType }, conditions: [] },
    });
    const scope = v3()
      .post(`${INFRA}/projects/ml/clusters/gke-1/updatecontrollerdeployment`, {
        capiVersion: 'v1.6.0',
      })
      .reply(409, { code: 'conflict', message: 'cluster gke-1 is provisioning, not ready' })
      .get(`${INFRA}/projects/ml/clusters/gke-1`)
      .reply(200, common('ClusterProvisioning'))
      .get(`${INFRA}/projects/ml/clusters/gke-1`)
      .reply(200, common('ClusterReady'))
      .post(`${INFRA}/projects/ml/clusters/gke-1/updatecontrollerdeployment`, {
        capiVersion: 'v1.6.0',
      })
      .reply(202, 'accepted', { 'content-type': 'text/plain' });
    const ports = testPorts(testClient());
    await clusterControllersProvider.execute(act(capi!), ports);
    expect(scope.isDone()).toBe(true);
    expect(ports.lines).toEqual(['waiting for cluster ml/gke-1: provisioning, 0s']);
  });
});
