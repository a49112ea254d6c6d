import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bareMetalBody, vpcBody, workspaceBody } from './fixtures-paas/harness.js';
import { clusterBody, type Harness, INFRA, startHarness } from './harness.js';

// The emulator started with --dialect rafay answers the vendor's published request shapes
// (docs/dialects.md); each expectation below failed against the spec-only emulator.
const P = '/apis/paas.envmgmt.io/v1/projects';
const BILLING = '/apis/billing.envmgmt.io/v1/metrics/partner';
const RAFAY_ID = { header: 'X-RAFAY-API-KEYID' };
const X_API_KEY = { header: 'x-api-key' };

let h: Harness;
beforeAll(async () => {
  h = await startHarness({ dialect: 'rafay', clockSpeed: 1e-6 });
});
afterAll(() => h.close());

describe('emulator --dialect rafay', () => {
  it('takes the key in X-RAFAY-API-KEYID on /auth and infra, x-api-key on PaaS and billing', async () => {
    expect((await h.call('GET', '/auth/v1/projects/', undefined, RAFAY_ID)).status).toBe(200);
    expect((await h.call('GET', '/auth/v1/projects/')).status).toBe(401); // the spec's header
    expect((await h.call('GET', `${INFRA}/platform/clusters`, undefined, RAFAY_ID)).status).toBe(
      200,
    );
    expect((await h.call('GET', `${P}/platform/workspaces`, undefined, X_API_KEY)).status).toBe(
      200,
    );
    const spec = await h.call('GET', `${P}/platform/workspaces`);
    expect(spec.status).toBe(401);
  });

  it('creates a cluster with string versions and the Terraform enums, answering 200 and commonStatus', async () => {
    const body = clusterBody('tf-gke', {
      type: 'gke',
      config: {
        project: 'acme-gcp',
        location: { type: 'regional', zone: 'us-central1' },
        controlPlaneVersion: '1.30',
        network: { name: 'default', networkAccess: { privacy: 'private' } },
        nodePools: [
          { name: 'p', size: 1, nodeVersion: '1.30', upgradeSettings: { strategy: 'SURGE' } },
        ],
      },
    });
    (body.metadata as Record<string, unknown>).labels = { team: 'ml' };
    const created = await h.call('POST', `${INFRA}/platform/clusters`, body, RAFAY_ID);
    expect(created.status).toBe(200);
    expect(created.body.status.commonStatus.conditionType).toBe('ClusterProvisioning');
    expect(created.body.status.status).toBeUndefined();
    const read = await h.call('GET', `${INFRA}/platform/clusters/tf-gke`, undefined, RAFAY_ID);
    expect(read.body.spec.config.controlPlaneVersion).toBe('1.30');
    expect(read.body.metadata.labels).toEqual({ team: 'ml' });
    const status = await h.call(
      'GET',
      `${INFRA}/platform/clusters/tf-gke/status`,
      undefined,
      RAFAY_ID,
    );
    expect(status.body.status.conditions[0].type).toBe('ClusterProvisioning');
    const numeric = clusterBody('num', {});
    const refused = await h.call('POST', `${INFRA}/platform/clusters`, numeric, RAFAY_ID);
    expect(refused.status).toBe(400); // 1.29 as a number: the vendor types versions as strings
    const gone = await h.call('DELETE', `${INFRA}/platform/clusters/tf-gke`, undefined, RAFAY_ID);
    expect(gone.status).toBe(200);
    expect(gone.text).toBe('');
  });

  it('accepts the console instance body: vm, datacenter, storageDetails, variables[].options', async () => {
    await h.call('POST', `${P}/platform/workspaces`, workspaceBody('ws'), X_API_KEY);
    const body = bareMetalBody('vm-1', { profile: 'small-gpu-vm' });
    const spec = body.spec as Record<string, unknown>;
    spec.computeType = 'vm';
    spec.datacenter = { name: 'us-central1-a' };
    spec.storageDetails = { rootDiskGb: 200 };
    spec.variables = [
      { name: 'node_os_image', value: 'ubuntu-22.04', options: { override: 'allowed' } },
    ];
    (body.metadata as Record<string, unknown>).labels = { team: 'ml' };
    const created = await h.call(
      'POST',
      `${P}/platform/workspaces/ws/computeinstances`,
      body,
      X_API_KEY,
    );
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const read = await h.call(
      'GET',
      `${P}/platform/workspaces/ws/computeinstances/vm-1`,
      undefined,
      X_API_KEY,
    );
    expect(read.body.spec.datacenter).toEqual({ name: 'us-central1-a' });
    expect(read.body.metadata.labels).toEqual({ team: 'ml' });
  });

  it('lists instances per workspace only, and reads compute and service profiles', async () => {
    const list = await h.call(
      'GET',
      `${P}/platform/workspaces/ws/computeinstances`,
      undefined,
      X_API_KEY,
    );
    expect(list.status).toBe(200);
    expect(list.body.items.map((i: { metadata: { name: string } }) => i.metadata.name)).toContain(
      'vm-1',
    );
    const byProject = await h.call(
      'GET',
      `${P}/platform/computeinstances?computeType=baremetal`,
      undefined,
      X_API_KEY,
    );
    expect([404, 405]).toContain(byProject.status);
    const profiles = await h.call('GET', `${P}/platform/computeprofiles`, undefined, X_API_KEY);
    expect(
      profiles.body.items.map((p: { metadata: { name: string } }) => p.metadata.name),
    ).toContain('bmaas-h100');
    expect(
      (await h.call('GET', `${P}/platform/computeprofiles/bmaas-h100`, undefined, X_API_KEY))
        .status,
    ).toBe(200);
    expect(
      (await h.call('GET', `${P}/platform/computeprofiles/nope`, undefined, X_API_KEY)).status,
    ).toBe(404);
    const services = await h.call('GET', `${P}/platform/serviceprofiles`, undefined, X_API_KEY);
    expect(services.body.items.map((p: { metadata: { name: string } }) => p.metadata.name)).toEqual(
      ['vpc'],
    );
  });

  it('makes a service create an upsert unless fail-on-exists=true', async () => {
    const first = await h.call('POST', `${P}/platform/services`, vpcBody('v'), X_API_KEY);
    expect(first.status).toBe(201);
    const again = await h.call('POST', `${P}/platform/services`, vpcBody('v'), X_API_KEY);
    expect(again.status).toBe(200);
    const strict = await h.call(
      'POST',
      `${P}/platform/services?fail-on-exists=true`,
      vpcBody('v'),
      X_API_KEY,
    );
    expect(strict.status).toBe(409);
  });

  it('requires the billing window and answers rows with names, raw usage and times', async () => {
    const missing = await h.call(
      'GET',
      `${BILLING}/instance/kind/compute/usage`,
      undefined,
      X_API_KEY,
    );
    expect(missing.status).toBe(400);
    await h.call('POST', `${P}/platform/services/v/publish`, undefined, X_API_KEY);
    await h.advance(60);
    await h.call(
      'POST',
      `${P}/platform/workspaces/ws/computeinstances/vm-1/publish`,
      undefined,
      X_API_KEY,
    );
    await h.advance(3600 * 2);
    const from = new Date(Date.now() - 86_400_000 * 2).toISOString();
    const to = new Date(Date.now() + 86_400_000 * 2).toISOString();
    const q = `range_from=${encodeURIComponent(from)}&range_to=${encodeURIComponent(to)}`;
    const rows = await h.call(
      'GET',
      `${BILLING}/instance/kind/compute/usage?${q}`,
      undefined,
      X_API_KEY,
    );
    expect(rows.status, JSON.stringify(rows.body)).toBe(200);
    const row = rows.body.instance_usage_data.find(
      (r: { instance_name: string }) => r.instance_name === 'vm-1',
    );
    expect(row).toMatchObject({
      instance_project_name: 'platform',
      instance_organization_name: expect.any(String),
    });
    expect(row.raw_usage).toBeGreaterThan(1);
    expect(typeof row.created_at).toBe('string');
    expect(Date.parse(row.end_time)).toBeGreaterThan(Date.parse(row.start_time));
  });
});
