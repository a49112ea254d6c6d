import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bareMetalBody,
  createWorkspace,
  k8sBody,
  P,
  type PaasHarness,
  type Reply,
  startPaas,
  vpcBody,
} from './fixtures-paas/harness.js';
import { clusterBody, INFRA } from './harness.js';

/**
 * The emulator is as strict as the spec wherever the spec is strict (issue 15): the envelope of
 * every resource body, the values the spec names, numeric versions and unit-suffixed durations.
 * Every refusal is a 400 whose details name the field.
 */
describe('spec strictness of resource bodies', () => {
  let h: PaasHarness;
  beforeAll(async () => {
    h = await startPaas();
    await createWorkspace(h);
  });
  afterAll(async () => h.close());

  const V3 = 'X-API-KEY';
  const fields = (r: Reply): string[] =>
    (r.body?.details ?? []).map((d: { field: string }) => d.field);
  const expect400 = (r: Reply, field: string) => {
    expect(r.status, JSON.stringify(r.body)).toBe(400);
    expect(fields(r)).toContain(field);
  };
  const without = (body: object, key: string) =>
    Object.fromEntries(Object.entries(body).filter(([k]) => k !== key));
  const workspaceBody = (name: string) => ({
    apiVersion: 'paas.envmgmt.io/v1',
    kind: 'Workspace',
    metadata: { name, project: 'platform' },
  });

  /** Each kind: where it is posted, a valid body, and the header its generation takes. */
  const kinds = [
    { kind: 'Service', path: `${P}/platform/services`, body: vpcBody('strict-vpc') },
    { kind: 'Workspace', path: `${P}/platform/workspaces`, body: workspaceBody('strict-ws') },
    {
      kind: 'ComputeInstance',
      path: `${P}/platform/workspaces/ws/computeinstances`,
      body: bareMetalBody('strict-bm'),
    },
    {
      kind: 'Cluster',
      path: `${INFRA}/platform/clusters`,
      body: clusterBody('strict-gke'),
      header: V3,
    },
  ];

  for (const { kind, path, body, header } of kinds) {
    it(`${kind}: refuses a missing or foreign apiVersion and kind (400 naming the field)`, async () => {
      const post = (b: unknown) => h.call('POST', path, b, header);
      expect400(await post(without(body, 'apiVersion')), 'apiVersion');
      expect400(await post({ ...body, apiVersion: 'paas.envmgmt.io/v9' }), 'apiVersion');
      expect400(await post({ ...body, apiVersion: 'infra.k8smgmt.io/v2' }), 'apiVersion');
      expect400(await post(without(body, 'kind')), 'kind');
      expect400(await post({ ...body, kind: 'Widget' }), 'kind');
    });

    it(`${kind}: requires metadata.project (one rule for every kind)`, async () => {
      const b = body as { metadata: Record<string, unknown> };
      const noProject = { ...b, metadata: without(b.metadata, 'project') };
      expect400(await h.call('POST', path, noProject, header), 'metadata.project');
    });
  }

  it('ComputeInstance: requires metadata.workspace as well', async () => {
    const b = k8sBody('strict-k8s');
    const r = await h.call('POST', `${P}/platform/workspaces/ws/computeinstances`, {
      ...b,
      metadata: without(b.metadata, 'workspace'),
    });
    expect400(r, 'metadata.workspace');
  });

  it('Service: spec.serviceType is the value the spec names, custom', async () => {
    const b = vpcBody('strict-managed');
    const managed = { ...b, spec: { ...b.spec, serviceType: 'managed' } };
    expect400(await h.call('POST', `${P}/platform/services`, managed), 'spec.serviceType');
  });

  /** A cluster body with one node pool's and one config's fields replaced. */
  const cluster = (name: string, config: object, pool: object = {}) => {
    const b = clusterBody(name) as { spec: { config: Record<string, unknown> } };
    const pools = b.spec.config.nodePools as Record<string, unknown>[];
    return {
      ...b,
      spec: {
        ...b.spec,
        config: { ...b.spec.config, ...config, nodePools: [{ ...pools[0], ...pool }] },
      },
    };
  };
  const postCluster = (body: unknown) => h.call('POST', `${INFRA}/platform/clusters`, body, V3);

  it('Cluster: controlPlaneVersion and nodeVersion are numbers, as the spec types them', async () => {
    expect400(
      await postCluster(cluster('gke-str-cp', { controlPlaneVersion: '1.29' })),
      'spec.config.controlPlaneVersion',
    );
    expect400(
      await postCluster(cluster('gke-str-nv', {}, { nodeVersion: '1.29' })),
      'spec.config.nodePools[0].nodeVersion',
    );
    const numeric = await postCluster(cluster('gke-num', {}, { nodeVersion: 1.29 }));
    expect(numeric.status, JSON.stringify(numeric.body)).toBe(201);
  });

  it('Cluster: every field whose values are "not shown" takes only the values the spec names', async () => {
    expect400(
      await postCluster(cluster('gke-regional', { location: { type: 'regional', zone: 'z' } })),
      'spec.config.location.type',
    );
    expect400(
      await postCluster(
        cluster('gke-private', { network: { name: 'n', networkAccess: { privacy: 'private' } } }),
      ),
      'spec.config.network.networkAccess.privacy',
    );
    expect400(
      await postCluster(cluster('gke-surge', {}, { upgradeSettings: { strategy: 'SURGE' } })),
      'spec.config.nodePools[0].upgradeSettings.strategy',
    );
    const b = clusterBody('gke-eks') as { spec: object };
    expect400(await postCluster({ ...b, spec: { ...b.spec, type: 'Eks' } }), 'spec.type');
  });

  it('Cluster: soak durations take the s, m and h unit suffixes', async () => {
    const soak = (name: string, value: string) =>
      postCluster(
        cluster(
          name,
          {},
          {
            upgradeSettings: {
              strategy: 'BLUE_GREEN',
              config: { batchSoakDuration: value, nodePoolSoakDuration: value },
            },
          },
        ),
      );
    for (const [i, ok] of ['90s', '2.5s', '5m', '1h', '1h30m', '1h0m30s'].entries()) {
      const r = await soak(`gke-soak-${i}`, ok);
      expect(r.status, `${ok}: ${JSON.stringify(r.body)}`).toBe(201);
    }
    for (const bad of ['5', '5d', 'm', '5ms', '30s1h', '']) {
      expect400(
        await soak('gke-soak-bad', bad),
        'spec.config.nodePools[0].upgradeSettings.config.batchSoakDuration',
      );
    }
  });

  it('answers 404 where the spec lists no 404 but the target does not exist (recorded choices)', async () => {
    const group = [{ id: 'grp-org-admins', name: 'Organization Admins', type: 'SYSTEM' }];
    const project = { id: 'prj-platform', name: 'platform' };
    const role = { id: 'role-project-admin', name: 'PROJECT_ADMIN', scope: 'PROJECT' };
    const users = '/auth/v1/users/no-such-account';
    expect((await h.call('POST', `${users}/addtogroups/`, group)).status).toBe(404);
    expect((await h.call('POST', `${users}/removefromgroups/`, group)).status).toBe(404);
    const assign = { roles: [role], project };
    expect((await h.call('POST', `${users}/assigntoproject/`, assign)).status).toBe(404);
    const unassign = { roles: [{ role: { id: role.id, scope: 'PROJECT' } }], project };
    expect((await h.call('POST', `${users}/unassignfromproject/`, unassign)).status).toBe(404);
    const vpc = { ...vpcBody('vpc-x'), metadata: { name: 'vpc-x', project: 'nowhere' } };
    expect((await h.call('POST', `${P}/nowhere/services`, vpc)).status).toBe(404);
    const bm = bareMetalBody('bm-x');
    const noWs = { ...bm, metadata: { ...bm.metadata, workspace: 'nowhere' } };
    expect(
      (await h.call('POST', `${P}/platform/workspaces/nowhere/computeinstances`, noWs)).status,
    ).toBe(404);
  });
});
