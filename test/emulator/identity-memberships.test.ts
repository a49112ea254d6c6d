import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { assignment, type Harness, INFRA, startHarness } from './harness.js';

const PLATFORM = { id: 'prj-platform', name: 'platform' };
const ADMINS = { id: 'grp-org-admins', name: 'Organization Admins', type: 'SYSTEM' };

describe('identity: groups and project assignment', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());

  it('adds to and removes from groups (200, idempotent); Organization Admins grants org access', async () => {
    const u = await h.newUser('grouped@acme.example');
    expect((await h.call('GET', '/auth/v1/users/', undefined, { key: u.key })).status).toBe(403);
    const add = await h.call('POST', `/auth/v1/users/${u.id}/addtogroups/`, [ADMINS]);
    expect(add.status).toBe(200);
    expect(typeof add.body.message).toBe('string');
    expect((await h.call('POST', `/auth/v1/users/${u.id}/addtogroups/`, [ADMINS])).status).toBe(
      200,
    );
    expect((await h.call('GET', '/auth/v1/users/', undefined, { key: u.key })).status).toBe(200);
    expect(
      (await h.call('POST', `/auth/v1/users/${u.id}/removefromgroups/`, [ADMINS])).status,
    ).toBe(200);
    expect(
      (await h.call('POST', `/auth/v1/users/${u.id}/removefromgroups/`, [ADMINS])).status,
    ).toBe(200);
    expect((await h.call('GET', '/auth/v1/users/', undefined, { key: u.key })).status).toBe(403);
  });

  it('refuses unknown groups, bad group references and unknown users', async () => {
    const u = await h.newUser('g2@acme.example');
    const unknown = await h.call('POST', `/auth/v1/users/${u.id}/addtogroups/`, [
      { ...ADMINS, id: 'grp-nope' },
    ]);
    expect(unknown.status).toBe(400);
    expect(unknown.body.details[0].field).toBe('[0].id');
    const wrongName = await h.call('POST', `/auth/v1/users/${u.id}/addtogroups/`, [
      { ...ADMINS, name: 'Admins' },
    ]);
    expect(wrongName.status).toBe(400);
    const noType = await h.call('POST', `/auth/v1/users/${u.id}/addtogroups/`, [
      { id: ADMINS.id, name: ADMINS.name },
    ]);
    expect(noType.status).toBe(400);
    expect(noType.body.details[0].field).toBe('[0].type');
    expect((await h.call('POST', '/auth/v1/users/nobody/addtogroups/', [ADMINS])).status).toBe(404);
    const asUser = await h.call('POST', `/auth/v1/users/${u.id}/addtogroups/`, [ADMINS], {
      key: u.key,
    });
    expect(asUser.status).toBe(403);
  });

  it('assign gives project access (403 before, 200 after), unassign takes it away again', async () => {
    const u = await h.newUser('dev@acme.example');
    const asUser = { key: u.key, header: 'X-API-KEY' };
    const list = () => h.call('GET', `${INFRA}/platform/clusters`, undefined, asUser);
    expect((await list()).status).toBe(403);
    const assigned = await h.call(
      'POST',
      `/auth/v1/users/${u.id}/assigntoproject/`,
      assignment(PLATFORM, 'PROJECT_READ_ONLY'),
    );
    expect(assigned.status).toBe(200);
    expect((await list()).status).toBe(200);
    // read-only may not write
    const write = await h.call('DELETE', `${INFRA}/platform/clusters/none`, undefined, asUser);
    expect(write.status).toBe(403);
    // another project stays closed
    expect((await h.call('GET', `${INFRA}/default/clusters`, undefined, asUser)).status).toBe(403);
    const body = {
      project: PLATFORM,
      roles: [{ role: { id: 'role-project-read-only', scope: 'PROJECT' } }],
    };
    expect((await h.call('POST', `/auth/v1/users/${u.id}/unassignfromproject/`, body)).status).toBe(
      200,
    );
    expect((await h.call('POST', `/auth/v1/users/${u.id}/unassignfromproject/`, body)).status).toBe(
      200,
    );
    expect((await list()).status).toBe(403);
  });

  it('refuses unknown roles, a project whose id and name disagree, and the other body shape', async () => {
    const u = await h.newUser('dev2@acme.example');
    const path = `/auth/v1/users/${u.id}/assigntoproject/`;
    const badRole = assignment(PLATFORM, 'PROJECT_ADMIN') as { roles: { id: string }[] };
    badRole.roles[0]!.id = 'role-nope';
    const r1 = await h.call('POST', path, badRole);
    expect(r1.status).toBe(400);
    expect(r1.body.details[0].field).toBe('roles[0].id');
    const r2 = await h.call(
      'POST',
      path,
      assignment({ id: 'prj-default', name: 'platform' }, 'PROJECT_ADMIN'),
    );
    expect(r2.status).toBe(400);
    expect(r2.body.details[0].field).toBe('project.id');
    const r3 = await h.call(
      'POST',
      path,
      assignment({ id: 'prj-globex-default', name: 'globex-default' }, 'PROJECT_ADMIN'),
    );
    expect(r3.status).toBe(400);
    const r4 = await h.call('POST', path, {
      project: PLATFORM,
      roles: [{ role: { id: 'role-project-admin', scope: 'PROJECT' } }],
    });
    expect(r4.status).toBe(400);
    expect(r4.body.details.map((d: { field: string }) => d.field)).toContain('roles[0].id');
    const r5 = await h.call('POST', path, {
      ...(assignment(PLATFORM, 'PROJECT_ADMIN') as object),
      roles: [],
    });
    expect(r5.status).toBe(400);
    expect(r5.body.details[0].field).toBe('roles');
  });
});
