import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  bareMetalBody,
  deployVpc,
  P,
  type PaasHarness,
  startPaas,
  userWithRole,
  workspaceBody,
} from './fixtures-paas/harness.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;
const MICROS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}Z$/;

describe('workspaces over HTTP', () => {
  let h: PaasHarness;
  beforeAll(async () => {
    h = await startPaas();
  });
  afterAll(async () => h.close());

  const ws = `${P}/platform/workspaces`;
  const names = (r: { body: { items: { metadata: { name: string } }[] } }) =>
    r.body.items.map((i) => i.metadata.name);

  it('creates (200) with apiVersion, kind and metadata {name, project, createdAt}', async () => {
    const r = await h.call('POST', ws, workspaceBody('dev', { displayName: 'Dev' }));
    expect(r.status).toBe(200);
    expect(r.body).toEqual({
      apiVersion: 'paas.envmgmt.io/v1',
      kind: 'Workspace',
      metadata: { name: 'dev', project: 'platform', createdAt: expect.stringMatching(MICROS) },
    });
  });

  it('reads one workspace with a UUID id and microsecond createdAt; 404 when unknown', async () => {
    const r = await h.call('GET', `${ws}/dev`);
    expect(r.status).toBe(200);
    expect(r.body.metadata).toMatchObject({ name: 'dev', project: 'platform', displayName: 'Dev' });
    expect(r.body.metadata.id).toMatch(UUID);
    expect(r.body.metadata.createdAt).toMatch(MICROS);
    expect((await h.call('GET', `${ws}/nope`)).status).toBe(404);
  });

  it('updates in place (same id and createdAt); fail-on-exists=true gives 409', async () => {
    const before = (await h.call('GET', `${ws}/dev`)).body.metadata;
    const up = await h.call('POST', ws, workspaceBody('dev', { description: 'd' }));
    expect(up.status).toBe(200);
    const after = (await h.call('GET', `${ws}/dev`)).body.metadata;
    expect(after).toMatchObject({ id: before.id, createdAt: before.createdAt, description: 'd' });
    const conflict = await h.call('POST', `${ws}?fail-on-exists=true`, workspaceBody('dev'));
    expect(conflict.status).toBe(409);
    const fresh = await h.call('POST', `${ws}?fail-on-exists=true`, workspaceBody('qa'));
    expect(fresh.status).toBe(200);
    expect((await h.call('POST', `${ws}?fail-on-exists=false`, workspaceBody('qa'))).status).toBe(
      200,
    );
  });

  it('lists with the defaults (limit 50, DESC by createdAt) and true counts', async () => {
    for (const n of ['w1', 'w2', 'w3']) await h.call('POST', ws, workspaceBody(n));
    const all = await h.call('GET', ws);
    expect(all.status).toBe(200);
    expect(all.body.apiVersion).toBe('paas.envmgmt.io/v1');
    expect(all.body.kind).toBe('WorkspaceList');
    expect(all.body.metadata).toEqual({ count: 5, limit: 50 });
    expect(names(all)).toEqual(['w3', 'w2', 'w1', 'qa', 'dev']);
    expect(all.body.items[0].metadata.id).toMatch(UUID);
    const page = await h.call('GET', `${ws}?limit=2&offset=1&order=ASC&orderBy=createdAt`);
    expect(page.body.metadata).toEqual({ count: 5, limit: 2 });
    expect(names(page)).toEqual(['qa', 'w1']);
    expect(names(await h.call('GET', `${ws}?offset=10`))).toEqual([]);
    expect((await h.call('GET', `${P}/default/workspaces`)).body.metadata.count).toBe(0);
  });

  it('rejects bad queries and bodies naming the field, and stores nothing', async () => {
    const order = await h.call('GET', `${ws}?order=sideways`);
    expect(order.status).toBe(400);
    expect(order.body.details[0].field).toBe('order');
    expect((await h.call('GET', `${ws}?orderBy=name`)).status).toBe(400);
    expect((await h.call('GET', `${ws}?limit=ten`)).status).toBe(400);
    const noName = await h.call('POST', ws, {
      ...workspaceBody('x'),
      metadata: { project: 'platform' },
    });
    expect(noName.status).toBe(400);
    expect(noName.body.details[0].field).toBe('metadata.name');
    expect((await h.call('POST', ws, workspaceBody('a/b'))).status).toBe(400);
    expect((await h.call('POST', `${ws}?fail-on-exists=maybe`, workspaceBody('zz'))).status).toBe(
      400,
    );
    expect((await h.call('GET', ws)).body.metadata.count).toBe(5);
  });

  it('refuses to delete a workspace holding compute instances (409), then deletes (200 null)', async () => {
    await deployVpc(h);
    const inst = bareMetalBody('bm-1');
    inst.metadata.workspace = 'w1';
    expect((await h.call('POST', `${ws}/w1/computeinstances`, inst)).status).toBe(201);
    expect((await h.call('DELETE', `${ws}/w1`)).status).toBe(409);
    expect((await h.call('DELETE', `${ws}/w1/computeinstances/bm-1`)).status).toBe(202);
    expect((await h.call('DELETE', `${ws}/w1`)).status).toBe(409); // still deleting
    await h.advance(60);
    const del = await h.call('DELETE', `${ws}/w1`);
    expect(del.status).toBe(200);
    expect(del.body).toBeNull();
    expect((await h.call('GET', `${ws}/w1`)).status).toBe(404);
    expect((await h.call('DELETE', `${ws}/w1`)).status).toBe(404);
  });

  it('answers 403 to writes without a write role and to reads without any role', async () => {
    const reader = userWithRole(h, 'ws-reader', 'PROJECT_READ_ONLY');
    expect((await h.callAs(reader, 'GET', ws)).status).toBe(200);
    expect((await h.callAs(reader, 'POST', ws, workspaceBody('r'))).status).toBe(403);
    expect((await h.callAs(reader, 'DELETE', `${ws}/qa`)).status).toBe(403);
    expect((await h.callAs(userWithRole(h, 'ws-none'), 'GET', `${ws}/qa`)).status).toBe(403);
  });

  it('answers 401 without a key and 404 for an unknown project', async () => {
    expect((await h.anonymous('GET', ws)).status).toBe(401);
    expect((await h.call('GET', `${P}/nope/workspaces`)).status).toBe(404);
  });
});
