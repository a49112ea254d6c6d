import { describe, expect, it } from 'vitest';
import { projectAssignmentProvider } from '../../src/providers/project-assignment.js';
import { userProvider } from '../../src/providers/user.js';
import { act, assignment, loaded, user } from './fixtures.js';
import { connectionReset, testClient, testPorts, useNock, v1 } from './helpers.js';

useNock();

const PASSWORD = 'Correct-Horse-Battery-9';
const account = {
  id: 'acc-1',
  username: 'alice@acme.example',
  first_name: 'Alice',
  last_name: 'A',
  user_type: 'CONSOLE',
  active: true,
};

describe('user adapter', () => {
  it('observes through the users list, every page, with the account id', async () => {
    const page = (n: number, from: number) =>
      Array.from({ length: n }, (_, i) => ({
        account: { ...account, id: `x${from + i}`, username: `u${from + i}@x` },
      }));
    const scope = v1()
      .get('/auth/v1/users/')
      .query({})
      .reply(200, { users: page(1000, 0), count: 1001, offset: 0, limit: 1000 })
      .get('/auth/v1/users/')
      .query({ offset: '1000', limit: '1' })
      .reply(200, { users: [{ account }], count: 1001, offset: 1000, limit: 1000 });
    const [live] = await userProvider.observe(
      { desired: [loaded(user())], inventory: [], projects: [] },
      testPorts(testClient()),
    );
    expect(scope.isDone()).toBe(true);
    expect(live).toMatchObject({ key: 'User/alice@acme.example', ref: { id: 'acc-1' } });
    expect(
      userProvider.plan({ key: live!.key, desired: user(), live: live!, lastApplied: user() }),
    ).toEqual([]);
    expect(
      userProvider.diagnose?.({
        key: live!.key,
        desired: { ...user(), spec: { ...user().spec, last_name: 'B' } },
        live: live!,
      }),
    ).toMatchObject([
      { severity: 'error', message: expect.stringContaining('cannot update a user') },
    ]);
  });

  it('creates with the password resolved at execution, then adds groups by account id', async () => {
    const scope = v1()
      .post('/auth/v1/users/', {
        account: {
          username: 'alice@acme.example',
          first_name: 'Alice',
          last_name: 'A',
          password: PASSWORD,
          user_type: 'CONSOLE',
        },
      })
      .reply(201, { account, sso_account: null, is_sso: false })
      .post('/auth/v1/users/acc-1/addtogroups/', [
        { id: 'grp-ml', name: 'ML Researchers', type: 'SYSTEM' },
      ])
      .reply(200, { message: 'ok' });
    const actions = userProvider.plan({ key: 'User/alice@acme.example', desired: user() });
    expect(actions.map((a) => a.type)).toEqual(['create', 'add-groups']);
    expect(JSON.stringify(actions)).not.toContain(PASSWORD);
    const ports = testPorts(testClient(), { resolveSecret: async () => PASSWORD });
    // The created account's id is remembered: adding groups needs no users list.
    expect(await userProvider.execute(act(actions[0]!), ports)).toEqual({ id: 'acc-1' });
    await userProvider.execute(act(actions[1]!), ports);
    expect(scope.isDone()).toBe(true);
  });

  it('checks a create that may have landed with a search for its username, not the whole list', async () => {
    // the create's answer is lost; the check must not page through the users list, which other
    // creates of the run are changing (they shifted its pages and failed a 100,000-resource apply)
    const scope = v1()
      .post('/auth/v1/users/')
      .replyWithError(connectionReset())
      .get('/auth/v1/users/')
      .query({ q: 'alice@acme.example' })
      .reply(200, {
        users: [
          { account: { ...account, id: 'acc-0', username: 'malice@acme.example' } },
          { account },
        ],
        count: 2,
      });
    const [create] = userProvider.plan({ key: 'User/alice@acme.example', desired: user([]) });
    const ports = testPorts(testClient(), { resolveSecret: async () => PASSWORD });
    // the id comes from the search: no further list
    expect(await userProvider.execute(act(create!), ports)).toMatchObject({ id: 'acc-1' });
    expect(scope.isDone()).toBe(true);
  });

  it('never shows the password when the create fails', async () => {
    v1()
      .post('/auth/v1/users/')
      .reply(400, { code: 'invalid_request', message: `bad password ${PASSWORD}` });
    const [create] = userProvider.plan({ key: 'User/alice@acme.example', desired: user() });
    const err = (await userProvider
      .execute(act(create!), testPorts(testClient(), { resolveSecret: async () => PASSWORD }))
      .catch((e: unknown) => e)) as Error;
    expect(err.message).toMatch(/^400 creating user alice@acme.example: bad password/);
    expect(err.message).not.toContain(PASSWORD);
  });

  it('removes groups dropped from git and deletes by account id', async () => {
    const live = {
      key: 'User/alice@acme.example',
      ref: { kind: 'User' as const, name: 'alice@acme.example', id: 'acc-1' },
      body: {},
    };
    const [remove] = userProvider.plan({
      key: live.key,
      desired: user([]),
      live,
      lastApplied: user(),
    });
    expect(remove).toMatchObject({ type: 'remove-groups', groups: [{ id: 'grp-ml' }] });
    const scope = v1()
      .post('/auth/v1/users/acc-1/removefromgroups/', [
        { id: 'grp-ml', name: 'ML Researchers', type: 'SYSTEM' },
      ])
      .reply(200, {})
      .delete('/auth/v1/users/acc-1/')
      .reply(204);
    await userProvider.execute(act(remove!), testPorts(testClient()));
    await userProvider.execute(
      act(userProvider.plan({ key: live.key, live })[0]!),
      testPorts(testClient()),
    );
    expect(scope.isDone()).toBe(true);
  });
});

describe('project assignment adapter', () => {
  it('assigns with roles and project, unassigns with wrapped roles', async () => {
    const scope = v1()
      .get('/auth/v1/users/')
      .query(true)
      .reply(200, { users: [{ account }], count: 1 })
      .post('/auth/v1/users/acc-1/assigntoproject/', {
        roles: [{ id: 'role-ro', name: 'PROJECT_READ_ONLY', scope: 'PROJECT' }],
        project: { id: 'id-ml', name: 'ml' },
      })
      .reply(200, { message: 'ok' })
      .post('/auth/v1/users/acc-1/unassignfromproject/', {
        project: { id: 'id-ml', name: 'ml' },
        roles: [{ role: { id: 'role-admin', scope: 'PROJECT' } }],
      })
      .reply(200, { message: 'ok' });
    const actions = projectAssignmentProvider.plan({
      key: 'ProjectAssignment/ml/alice',
      desired: assignment([{ id: 'role-ro', name: 'PROJECT_READ_ONLY' }]),
      lastApplied: assignment(),
    });
    expect(actions.map((a) => a.type)).toEqual(['unassign', 'assign']);
    const ports = testPorts(testClient());
    for (const a of actions.reverse()) await projectAssignmentProvider.execute(act(a), ports);
    expect(scope.isDone()).toBe(true);
  });
});
