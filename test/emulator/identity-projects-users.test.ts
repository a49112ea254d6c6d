import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_KEY, assignment, type Harness, startHarness } from './harness.js';

const account = (username: string, extra: Record<string, unknown> = {}) => ({
  account: {
    username,
    first_name: 'F',
    last_name: 'L',
    password: 'pw-1',
    user_type: 'CONSOLE',
    ...extra,
  },
});

describe('identity: projects and users', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  it('lists the org admin its organization projects with a true count, ordered and limited', async () => {
    const all = await h.call('GET', '/auth/v1/projects/');
    expect(all.status).toBe(200);
    expect(all.body.count).toBe(3);
    expect(all.body.items.map((p: { name: string }) => p.name)).toEqual([
      'default',
      'ml-research',
      'platform',
    ]);
    const page = await h.call('GET', '/auth/v1/projects/?limit=1&order=DESC&orderby=name');
    expect(page.body.count).toBe(3);
    expect(page.body.items).toHaveLength(1);
    expect(page.body.items[0]).toMatchObject({ id: 'prj-platform', name: 'platform' });
    expect(Object.keys(page.body.items[0]).sort()).toEqual([
      'createdAt',
      'description',
      'id',
      'modifiedAt',
      'name',
    ]);
  });

  it('accepts both headers on v1, case-insensitively, and answers 401 without a known key', async () => {
    expect(
      (await h.call('GET', '/auth/v1/projects/', undefined, { header: 'x-api-key' })).status,
    ).toBe(200);
    expect(
      (await h.call('GET', '/auth/v1/projects/', undefined, { header: 'x-service-api-keyid' }))
        .status,
    ).toBe(200);
    const none = await h.call('GET', '/auth/v1/projects/', undefined, { key: null });
    expect(none.status).toBe(401);
    expect(none.body.code).toBe('unauthorized');
    expect(
      (await h.call('GET', '/auth/v1/projects/', undefined, { key: 'nope-nope' })).status,
    ).toBe(401);
    expect(
      (await h.call('GET', '/auth/v1/projects/', undefined, { header: 'X-Other', key: ADMIN_KEY }))
        .status,
    ).toBe(401);
  });

  it('rejects a bad order, orderby or limit with 400 naming the parameter', async () => {
    for (const [q, field] of [
      ['order=UP', 'order'],
      ['orderby=color', 'orderby'],
      ['limit=5000', 'limit'],
      ['limit=abc', 'limit'],
    ]) {
      const r = await h.call('GET', `/auth/v1/projects/?${q}`);
      expect(r.status, q).toBe(400);
      expect(r.body.details[0].field).toBe(field);
    }
  });

  it('creates a user (201), refuses a bad one with the field named, and stores nothing then', async () => {
    const before = (await h.call('GET', '/auth/v1/users/')).body.count as number;
    const created = await h.call('POST', '/auth/v1/users/', account('ann@acme.example'));
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ sso_account: null, is_sso: false });
    expect(created.body.account).toMatchObject({
      username: 'ann@acme.example',
      user_type: 'CONSOLE',
    });
    expect(created.body.account.password).toBeUndefined();
    const bad = await h.call(
      'POST',
      '/auth/v1/users/',
      account('bob@acme.example', { user_type: 'ROBOT' }),
    );
    expect(bad.status).toBe(400);
    expect(bad.body.details.map((d: { field: string }) => d.field)).toContain('account.user_type');
    const missing = await h.call('POST', '/auth/v1/users/', {
      account: { username: 'c@acme.example' },
    });
    expect(missing.body.details.map((d: { field: string }) => d.field)).toEqual(
      expect.arrayContaining(['account.first_name', 'account.password']),
    );
    const malformed = await h.call('POST', '/auth/v1/users/', undefined, { raw: '{"account": ' });
    expect(malformed.status).toBe(400);
    const dup = await h.call('POST', '/auth/v1/users/', account('ANN@acme.example'));
    expect(dup.status).toBe(400);
    expect(dup.body.code).toBe('already_exists');
    expect((await h.call('GET', '/auth/v1/users/')).body.count).toBe(before + 1);
  });

  it('pages, searches and orders users with a true count', async () => {
    for (const name of ['zed', 'yan', 'xia']) {
      expect(
        (await h.call('POST', '/auth/v1/users/', account(`${name}@acme.example`))).status,
      ).toBe(201);
    }
    const all = await h.call('GET', '/auth/v1/users/?limit=1000');
    const page = await h.call(
      'GET',
      '/auth/v1/users/?limit=2&offset=1&orderBy=username&order=DESC',
    );
    expect(page.body).toMatchObject({ count: all.body.count, offset: 1, limit: 2 });
    const names = all.body.users
      .map((u: { account: { username: string } }) => u.account.username)
      .sort()
      .reverse();
    expect(
      page.body.users.map((u: { account: { username: string } }) => u.account.username),
    ).toEqual(names.slice(1, 3));
    const found = await h.call('GET', '/auth/v1/users/?q=YAN');
    expect(found.body.count).toBe(1);
    expect(found.body.users[0].account).toMatchObject({
      username: 'yan@acme.example',
      active: true,
    });
    expect((await h.call('GET', '/auth/v1/users/?orderBy=shoe')).status).toBe(400);
  });

  it('deletes a user (204, then 404) and its key stops working', async () => {
    const u = await h.newUser('gone@acme.example');
    expect((await h.call('GET', '/auth/v1/projects/', undefined, { key: u.key })).status).toBe(200);
    const del = await h.call('DELETE', `/auth/v1/users/${u.id}/`);
    expect(del.status).toBe(204);
    expect(del.text).toBe('');
    expect((await h.call('DELETE', `/auth/v1/users/${u.id}/`)).status).toBe(404);
    expect((await h.call('GET', '/auth/v1/projects/', undefined, { key: u.key })).status).toBe(401);
    const self = await h.call('DELETE', '/auth/v1/users/usr-admin/');
    expect(self.status).toBe(400);
    expect(self.body.details[0].field).toBe('accountId');
  });

  it('gives a user without a role 403 on org endpoints and only its own projects', async () => {
    const u = await h.newUser('norole@acme.example');
    const asUser = { key: u.key };
    expect((await h.call('GET', '/auth/v1/users/', undefined, asUser)).status).toBe(403);
    expect(
      (await h.call('POST', '/auth/v1/users/', account('x@acme.example'), asUser)).status,
    ).toBe(403);
    expect((await h.call('DELETE', `/auth/v1/users/${u.id}/`, undefined, asUser)).status).toBe(403);
    expect((await h.call('GET', '/auth/v1/projects/', undefined, asUser)).body).toEqual({
      count: 0,
      items: [],
    });
    const project = { id: 'prj-ml-research', name: 'ml-research' };
    expect(
      (
        await h.call(
          'POST',
          `/auth/v1/users/${u.id}/assigntoproject/`,
          assignment(project, 'PROJECT_READ_ONLY'),
        )
      ).status,
    ).toBe(200);
    const mine = await h.call('GET', '/auth/v1/projects/', undefined, asUser);
    expect(mine.body.count).toBe(1);
    expect(mine.body.items[0].name).toBe('ml-research');
  });
});
