import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { P, type PaasHarness, startPaas, userWithRole, vpcBody } from './fixtures-paas/harness.js';

describe('VPC services over HTTP', () => {
  let h: PaasHarness;
  beforeAll(async () => {
    h = await startPaas();
  });
  afterAll(async () => h.close());

  const svc = `${P}/platform/services`;

  it('creates a service not_deployed (201) and refuses a second create (409)', async () => {
    const created = await h.call('POST', svc, vpcBody('vpc-a'));
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      metadata: { name: 'vpc-a', project: 'platform' },
      status: { status: 'not_deployed' },
    });
    const again = await h.call('POST', svc, vpcBody('vpc-a'));
    expect(again.status).toBe(409);
    expect(again.body.code).toBe('already_exists');
  });

  it('accepts the x-api-key header of the samples and rejects a missing key (401)', async () => {
    expect((await h.call('GET', `${svc}/vpc-a`, undefined, 'x-api-key')).status).toBe(200);
    expect((await h.anonymous('GET', `${svc}/vpc-a`)).status).toBe(401);
    expect((await h.anonymous('POST', svc)).status).toBe(401);
  });

  it('deploys: publish 202 deploying, 409 while deploying, deployed after vpc-deploy, 409 again', async () => {
    const pub = await h.call('POST', `${svc}/vpc-a/publish`);
    expect(pub.status).toBe(202);
    expect(pub.body).toEqual({
      metadata: { name: 'vpc-a', project: 'platform' },
      status: { status: 'deploying' },
    });
    expect((await h.call('POST', `${svc}/vpc-a/publish`)).status).toBe(409);
    expect((await h.call('DELETE', `${svc}/vpc-a`)).status).toBe(409);
    await h.advance(29);
    expect((await h.call('GET', `${svc}/vpc-a`)).body.status.status).toBe('deploying');
    await h.advance(1);
    const read = await h.call('GET', `${svc}/vpc-a`);
    expect(read.status).toBe(200);
    expect(read.body).toMatchObject({
      apiVersion: 'paas.envmgmt.io/v1',
      kind: 'Service',
      metadata: { name: 'vpc-a', project: 'platform' },
      spec: { serviceProfile: { name: 'vpc' }, serviceType: 'custom' },
      status: { status: 'deployed' },
    });
    const again = await h.call('POST', `${svc}/vpc-a/publish`);
    expect(again.status).toBe(409);
    expect(again.body.message).toContain('deployed');
  });

  it('keeps displayName and description as sent', async () => {
    const body = vpcBody('vpc-desc');
    const r = await h.call('POST', svc, {
      ...body,
      metadata: { ...body.metadata, description: 'main VPC' },
    });
    expect(r.status).toBe(201);
    const read = await h.call('GET', `${svc}/vpc-desc`);
    expect(read.body.metadata).toMatchObject({ name: 'vpc-desc', description: 'main VPC' });
    expect(read.body.metadata.displayName).toBeUndefined();
    expect((await h.call('DELETE', `${svc}/vpc-desc`)).status).toBe(200);
  });

  it('answers 403 to a user without a write role on the project', async () => {
    const reader = userWithRole(h, 'svc-reader', 'PROJECT_READ_ONLY');
    expect((await h.callAs(reader, 'GET', svc)).status).toBe(200);
    expect((await h.callAs(reader, 'POST', svc, vpcBody('vpc-r'))).status).toBe(403);
    expect((await h.callAs(reader, 'POST', `${svc}/vpc-a/publish`)).status).toBe(403);
    const admin = userWithRole(h, 'svc-admin', 'INFRA_ADMIN');
    expect((await h.callAs(admin, 'POST', svc, vpcBody('vpc-r'))).status).toBe(201);
    expect((await h.call('DELETE', `${svc}/vpc-r`)).status).toBe(200);
  });

  it('answers 404 for an unknown service or project', async () => {
    expect((await h.call('POST', `${svc}/nope/publish`)).status).toBe(404);
    expect((await h.call('GET', `${svc}/nope`)).status).toBe(404);
    expect((await h.call('DELETE', `${svc}/nope`)).status).toBe(404);
    expect((await h.call('POST', `${P}/no-such-project/services`, vpcBody('x'))).status).toBe(404);
  });

  it('rejects invalid variables naming the field, and stores nothing', async () => {
    const cases: [string, string, string][] = [
      ['Default Subnet CIDR', '10.10.0.0', 'spec.variables[0].value'],
      ['Default Subnet CIDR', '10.10.0.0/33', 'spec.variables[0].value'],
      ['Default Subnet Gateway', '10.10.0.300', 'spec.variables[0].value'],
      ['Public IP Enabled', 'yes', 'spec.variables[0].value'],
    ];
    for (const [name, value, field] of cases) {
      const r = await h.call('POST', svc, vpcBody('bad', [{ name, value }]));
      expect(r.status, `${name}=${value}`).toBe(400);
      expect(r.body.details.map((d: { field: string }) => d.field)).toContain(field);
    }
    const numeric = await h.call(
      'POST',
      svc,
      vpcBody('bad', [{ name: 'Default VPC Name', value: 5 as unknown as string }]),
    );
    expect(numeric.status).toBe(400);
    const noProfile = vpcBody('bad') as { spec: Record<string, unknown> };
    delete noProfile.spec.serviceProfile;
    const missing = await h.call('POST', svc, noProfile);
    expect(missing.body.details[0].field).toBe('spec.serviceProfile');
    const other = await h.call('POST', svc, {
      ...vpcBody('bad'),
      metadata: { name: 'bad', project: 'default' },
    });
    expect(other.status).toBe(400);
    expect(other.body.details[0].field).toBe('metadata.project');
    expect((await h.call('POST', svc, '{"metadata":')).status).toBe(400);
    for (const profile of ['nope', 'bmaas-l40s']) {
      const body = vpcBody('bad');
      body.spec.serviceProfile.name = profile;
      const r = await h.call('POST', svc, body);
      expect(r.status, profile).toBe(400);
      expect(r.body.details[0].field).toBe('spec.serviceProfile.name');
    }
    expect((await h.call('GET', `${svc}/bad`)).status).toBe(404);
  });

  it('lists with true counts, paging and order', async () => {
    for (const n of ['vpc-b', 'vpc-c', 'vpc-d'])
      expect((await h.call('POST', svc, vpcBody(n))).status).toBe(201);
    const all = await h.call('GET', svc);
    expect(all.body.kind).toBe('ServiceList');
    expect(all.body.metadata).toEqual({ count: 4, limit: 50, offset: 0 });
    expect(all.body.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual([
      'vpc-d',
      'vpc-c',
      'vpc-b',
      'vpc-a',
    ]);
    const page = await h.call('GET', `${svc}?limit=2&offset=1&order=ASC`);
    expect(page.body.metadata).toEqual({ count: 4, limit: 2, offset: 1 });
    expect(page.body.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toEqual([
      'vpc-b',
      'vpc-c',
    ]);
    expect((await h.call('GET', `${svc}?order=UP`)).status).toBe(400);
    expect((await h.call('GET', `${svc}?limit=1001`)).status).toBe(400);
    expect((await h.call('GET', `${svc}?offset=-1`)).status).toBe(400);
  });

  it('deletes with a null body, then the service is gone', async () => {
    const del = await h.call('DELETE', `${svc}/vpc-b`);
    expect(del.status).toBe(200);
    expect(del.body).toBeNull();
    expect((await h.call('GET', `${svc}/vpc-b`)).status).toBe(404);
    expect((await h.call('GET', svc)).body.metadata.count).toBe(3);
  });

  it('reaches failed only through the test control, and may be published again', async () => {
    expect((await h.call('POST', `${svc}/vpc-c/publish`)).status).toBe(202);
    const failed = await h.call('POST', '/_emulator/fail', {
      kind: 'Service',
      project: 'platform',
      name: 'vpc-c',
    });
    expect(failed.status).toBe(200);
    expect(failed.body).toEqual({
      kind: 'Service',
      project: 'platform',
      name: 'vpc-c',
      status: 'failed',
    });
    expect((await h.call('GET', `${svc}/vpc-c`)).body.status.status).toBe('failed');
    expect((await h.call('POST', `${svc}/vpc-c/publish`)).body.status.status).toBe('deploying');
    const fail = async (body: object) => (await h.call('POST', '/_emulator/fail', body)).status;
    expect(await fail({ kind: 'Service', project: 'platform', name: 'zz' })).toBe(404);
    expect(await fail({ kind: 'Cluster', project: 'platform', name: 'vpc-c' })).toBe(400);
    expect(await fail({ kind: 'Service', name: 'vpc-c' })).toBe(400);
  });
});
