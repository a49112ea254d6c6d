import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bareMetalBody,
  createWorkspace,
  deployVpc,
  k8sBody,
  P,
  type PaasHarness,
  startPaas,
  userWithRole,
} from './fixtures-paas/harness.js';

describe('compute instances over HTTP', () => {
  let h: PaasHarness;
  beforeAll(async () => {
    h = await startPaas();
    await createWorkspace(h);
  });
  afterAll(async () => h.close());

  const ci = `${P}/platform/workspaces/ws/computeinstances`;
  const list = (type: string, extra = '') =>
    h.call('GET', `${P}/platform/computeinstances?computeType=${type}${extra}`);

  it('creates (201 Success), updates (200), and refuses with fail-on-exists (409)', async () => {
    const created = await h.call('POST', ci, bareMetalBody('bm-1'));
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ status: 'Success', name: 'bm-1' });
    expect(typeof created.body.message).toBe('string');
    const read = await h.call('GET', `${ci}/bm-1?computeType=baremetal`);
    expect(read.body.status.status).toBe('created');
    expect((await h.call('POST', `${ci}?fail-on-exists=true`, bareMetalBody('bm-1'))).status).toBe(
      409,
    );
    const same = await h.call('POST', ci, bareMetalBody('bm-1'));
    expect(same.status).toBe(200);
    expect(same.body.status).toBe('Success');
  });

  it('answers 404 for an unknown workspace and 400 for a profile that is unknown or of another type', async () => {
    const noWs = await h.call(
      'POST',
      `${P}/platform/workspaces/nope/computeinstances`,
      bareMetalBody('x'),
    );
    expect(noWs.status).toBe(404);
    const unknown = await h.call('POST', ci, bareMetalBody('x', { profile: 'bmaas-zz' }));
    expect(unknown.status).toBe(400);
    expect(unknown.body.details[0].field).toBe('spec.computeProfile.name');
    const wrongType = await h.call('POST', ci, bareMetalBody('x', { profile: 'gpu-k8s' }));
    expect(wrongType.status).toBe(400);
    expect(wrongType.body.details[0].field).toBe('spec.computeProfile.name');
    expect((await list('baremetal')).body.metadata.count).toBe(1);
  });

  it('checks the variables of the spec, naming the field, and stores nothing', async () => {
    const variable = (v: object) => bareMetalBody('bad', { variables: [v] });
    const cases: [object, string][] = [
      [{ name: 'Contract Term', valueType: 'text', value: '3' }, 'spec.variables[0].value'],
      [{ name: 'Contract Term', valueType: 'text', value: 12 }, 'spec.variables[0].value'],
      [{ name: 'assign_public_ip', valueType: 'text', value: 'yes' }, 'spec.variables[0].value'],
      [{ name: 'NVAIE License', valueType: 'text', value: 'on' }, 'spec.variables[0].value'],
      [{ name: 'node_os_image', valueType: 'yaml', value: 'x' }, 'spec.variables[0].valueType'],
      [{ name: 'node_os_image', value: 'x' }, 'spec.variables[0].valueType'],
      [
        { name: 'Security Policies', valueType: 'text', value: '[]' },
        'spec.variables[0].valueType',
      ],
      [
        { name: 'Security Policies', valueType: 'json', value: '{not json' },
        'spec.variables[0].value',
      ],
      [
        { name: 'Security Policies', valueType: 'json', value: '{"a":1}' },
        'spec.variables[0].value',
      ],
      [
        { name: 'Security Policies', valueType: 'json', value: '[{"action":"allow"}]' },
        'spec.variables[0].value',
      ],
    ];
    for (const [v, field] of cases) {
      const r = await h.call('POST', ci, variable(v));
      expect(r.status, JSON.stringify(v)).toBe(400);
      expect(
        r.body.details.map((d: { field: string }) => d.field),
        JSON.stringify(v),
      ).toContain(field);
    }
    const k8s = k8sBody('bad');
    const k8sCases: [string, string][] = [
      ['Cluster Kubernetes Version', '1.29.4'],
      ['H100 Worker Nodes', 'two'],
      ['Master Nodes', '-1'],
      ['Enable Infiniband Configuration', 'maybe'],
      ['Contract Term', '2'],
    ];
    for (const [name, value] of k8sCases) {
      const r = await h.call('POST', ci, {
        ...k8s,
        spec: { ...k8s.spec, variables: [{ name, value }] },
      });
      expect(r.status, name).toBe(400);
      expect(r.body.details[0].field).toBe('spec.variables[0].value');
    }
    const noName = await h.call(
      'POST',
      ci,
      bareMetalBody('bad', { variables: [{ valueType: 'text', value: '3' }] }),
    );
    expect(noName.body.details).toEqual([
      { field: 'spec.variables[0].name', message: expect.any(String) },
    ]);
    const { computeType: _omitted, ...untyped } = bareMetalBody('bad').spec;
    const noType = await h.call('POST', ci, {
      ...k8s,
      spec: { ...untyped, variables: [{ name: 'OS', value: 'x' }] },
    });
    expect(noType.body.details).toEqual([
      { field: 'spec.computeType', message: expect.any(String) },
    ]);
    const badType = await h.call('POST', ci, { ...k8s, spec: { ...k8s.spec, computeType: 'vm' } });
    expect(badType.body.details[0].field).toBe('spec.computeType');
    const extra = await h.call('POST', ci, { ...k8s, spec: { ...k8s.spec, size: 3 } });
    expect(extra.body.details[0].field).toBe('spec.size');
    expect((await list('baremetal')).body.metadata.count).toBe(1);
    expect((await list('k8s')).body.metadata.count).toBe(0);
  });

  it('publish needs a deployed VPC (409), then provisions to success with a masked password', async () => {
    const early = await h.call('POST', `${ci}/bm-1/publish`);
    expect(early.status).toBe(409);
    expect(early.body.message).toContain('VPC');
    await deployVpc(h);
    const pub = await h.call('POST', `${ci}/bm-1/publish`);
    expect(pub.status).toBe(202);
    expect(pub.body).toEqual({ status: 'Accepted', message: 'deployment initiated' });
    expect((await h.call('POST', `${ci}/bm-1/publish`)).status).toBe(409);
    expect((await h.call('GET', `${ci}/bm-1`)).body.status).toEqual({ status: 'provisioning' });
    expect((await h.call('POST', ci, bareMetalBody('bm-1', { publicIp: true }))).status).toBe(409);
    await h.advance(300);
    const read = await h.call('GET', `${ci}/bm-1?computeType=baremetal`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({
      apiVersion: 'paas.envmgmt.io/v1',
      kind: 'ComputeInstance',
      metadata: { name: 'bm-1', project: 'platform', workspace: 'ws' },
      spec: { computeType: 'baremetal', computeProfile: { name: 'bmaas-l40s' } },
      status: { status: 'success', powerState: 'on' },
    });
    const out = read.body.status.output;
    expect(out.ip_address.value).toMatch(/^10\.\d+\.\d+\.\d+$/);
    expect(out.public_ip_address.value).toBe('');
    expect(out.node_login_username.value).toBe('ubuntu');
    expect(out.node_login_password.value).toBe('********');
    expect((await h.call('POST', `${ci}/bm-1/publish`)).status).toBe(409);
    expect((await h.call('GET', `${ci}/bm-1?computeType=k8s`)).status).toBe(404);
    expect((await h.call('GET', `${ci}/bm-1?computeType=vm`)).status).toBe(400);
  });

  it('an update sets updated, and publishing it applies the new spec (public IP assigned)', async () => {
    const up = await h.call('POST', ci, bareMetalBody('bm-1', { publicIp: true }));
    expect(up.status).toBe(200);
    expect((await h.call('GET', `${ci}/bm-1`)).body.status.status).toBe('updated');
    expect((await h.call('POST', `${ci}/bm-1/publish`)).status).toBe(202);
    await h.advance(300);
    const read = await h.call('GET', `${ci}/bm-1`);
    expect(read.body.status.status).toBe('success');
    expect(read.body.status.output.public_ip_address.value).toMatch(/^203\.0\.113\.\d+$/);
  });

  it('stores a metadata-only update too, which then waits for a publish', async () => {
    const body = bareMetalBody('bm-1', { publicIp: true });
    const r = await h.call('POST', ci, {
      ...body,
      metadata: { ...body.metadata, description: 'GPU box' },
    });
    expect(r.status).toBe(200);
    const read = await h.call('GET', `${ci}/bm-1`);
    expect(read.body.metadata.description).toBe('GPU box');
    expect(read.body.status.status).toBe('updated');
    expect((await h.call('POST', `${ci}/bm-1/publish`)).status).toBe(202);
    await h.advance(300);
    expect((await h.call('GET', `${ci}/bm-1`)).body.status.status).toBe('success');
  });

  it('lists by computeType with true counts, paging and order; computeType is required', async () => {
    expect((await h.call('POST', ci, k8sBody('k8s-1'))).status).toBe(201);
    for (const n of ['bm-2', 'bm-3'])
      expect((await h.call('POST', ci, bareMetalBody(n))).status).toBe(201);
    const bm = await list('baremetal');
    expect(bm.status).toBe(200);
    expect(bm.body.kind).toBe('ComputeInstanceList');
    expect(bm.body.metadata).toEqual({ count: 3, limit: 50 });
    expect(bm.body.items[0]).toEqual({
      kind: 'ComputeInstance',
      metadata: { name: 'bm-3', project: 'platform', workspace: 'ws' },
      status: { status: 'created' },
    });
    const asc = await list('baremetal', '&order=ASC&limit=2&offset=1');
    expect(asc.body.metadata).toEqual({ count: 3, limit: 2 });
    expect(asc.body.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual([
      'bm-2',
      'bm-3',
    ]);
    const k8s = await list('k8s');
    expect(k8s.body.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual([
      'k8s-1',
    ]);
    const missing = await h.call('GET', `${P}/platform/computeinstances`);
    expect(missing.status).toBe(400);
    expect(missing.body.details[0].field).toBe('computeType');
    expect((await list('vm')).status).toBe(400);
    expect((await h.call('GET', `${P}/nope/computeinstances?computeType=k8s`)).status).toBe(404);
  });

  it('deletes asynchronously: 202, deleting, then gone after compute-delete', async () => {
    const del = await h.call('DELETE', `${ci}/bm-2`);
    expect(del.status).toBe(202);
    expect(del.body.status).toBe('Accepted');
    expect((await h.call('GET', `${ci}/bm-2`)).body.status.status).toBe('deleting');
    expect((await h.call('POST', `${ci}/bm-2/publish`)).status).toBe(409);
    expect((await h.call('DELETE', `${ci}/bm-2`)).status).toBe(202);
    await h.advance(59);
    expect((await h.call('GET', `${ci}/bm-2`)).status).toBe(200);
    await h.advance(1);
    expect((await h.call('GET', `${ci}/bm-2`)).status).toBe(404);
    expect((await h.call('DELETE', `${ci}/bm-2`)).status).toBe(404);
    expect((await list('baremetal')).body.metadata.count).toBe(2);
    expect((await h.call('POST', `${ci}/bm-2/publish`)).status).toBe(404);
  });

  it('fails through the test control and may be published again from failed', async () => {
    await h.call('POST', `${ci}/bm-3/publish`);
    const fail = (body: object) => h.call('POST', '/_emulator/fail', body);
    const r = await fail({
      kind: 'ComputeInstance',
      project: 'platform',
      workspace: 'ws',
      name: 'bm-3',
    });
    expect(r.status).toBe(200);
    expect(r.body.status).toBe('failed');
    expect((await h.call('GET', `${ci}/bm-3`)).body.status.status).toBe('failed');
    expect(
      (await fail({ kind: 'ComputeInstance', project: 'platform', name: 'bm-3' })).status,
    ).toBe(400);
    expect(
      (await fail({ kind: 'ComputeInstance', project: 'platform', workspace: 'ws', name: 'zz' }))
        .status,
    ).toBe(404);
    expect((await h.call('POST', `${ci}/bm-3/publish`)).status).toBe(202);
  });

  it('enforces keys and roles: 401 without a key, 403 for writes by a read-only user', async () => {
    expect((await h.anonymous('GET', `${ci}/bm-1`)).status).toBe(401);
    const reader = userWithRole(h, 'reader', 'PROJECT_READ_ONLY');
    expect((await h.callAs(reader, 'GET', `${ci}/bm-1`)).status).toBe(200);
    expect((await h.callAs(reader, 'POST', ci, bareMetalBody('r-1'))).status).toBe(403);
    expect((await h.callAs(reader, 'DELETE', `${ci}/bm-1`)).status).toBe(403);
    const stranger = userWithRole(h, 'stranger');
    expect((await h.callAs(stranger, 'GET', `${ci}/bm-1`)).status).toBe(403);
  });
});
