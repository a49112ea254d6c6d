import { describe, expect, it } from 'vitest';
import { blueprintPublishProvider } from '../../src/providers/blueprint-publish.js';
import { blueprintVersionProvider } from '../../src/providers/blueprint-version.js';
import { clusterControllersProvider } from '../../src/providers/cluster-controllers.js';
import { projectAssignmentProvider } from '../../src/providers/project-assignment.js';
import { userProvider } from '../../src/providers/user.js';
import { assignment, controllers, publish, user, version } from './fixtures.js';
import { liveOf, types } from './plan-helpers.js';

describe('User rules', () => {
  const live = liveOf(user());
  it('groups are compared with what was last applied', () => {
    const sre = { id: 'grp-sre', name: 'SRE' };
    const actions = userProvider.plan({
      key: 'k',
      desired: user([sre]),
      live,
      lastApplied: user(),
    });
    expect(actions).toMatchObject([
      { type: 'add-groups', groups: [sre] },
      { type: 'remove-groups', groups: [{ id: 'grp-ml' }] },
    ]);
  });
  it('deleted outside git: create again with every group', () => {
    expect(types(userProvider.plan({ key: 'k', desired: user(), lastApplied: user() }))).toEqual([
      'create',
      'add-groups',
    ]);
  });
  it('the password never appears in a plan, only its reference', () => {
    expect(JSON.stringify(userProvider.plan({ key: 'k', desired: user() }))).toContain('ALICE_PW');
  });
  it('pruned: delete when live, nothing when gone', () => {
    expect(types(userProvider.plan({ key: 'k', live }))).toEqual(['delete']);
    expect(userProvider.plan({ key: 'k', lastApplied: user() })).toEqual([]);
  });
});

describe('ProjectAssignment rules', () => {
  it('new: assign every role; pruned: unassign every role', () => {
    expect(projectAssignmentProvider.plan({ key: 'k', desired: assignment() })).toMatchObject([
      { type: 'assign', user: 'alice@acme.example', reason: { code: 'absent' } },
    ]);
    expect(projectAssignmentProvider.plan({ key: 'k', lastApplied: assignment() })).toMatchObject([
      { type: 'unassign', reason: { code: 'removed-from-git' } },
    ]);
    expect(
      projectAssignmentProvider.plan({
        key: 'k',
        desired: assignment(),
        lastApplied: assignment(),
      }),
    ).toEqual([]);
  });
  it('another user: unassign the previous one, assign the new one', () => {
    const actions = projectAssignmentProvider.plan({
      key: 'k',
      desired: assignment(undefined, 'bob@acme.example'),
      lastApplied: assignment(),
    });
    expect(actions).toMatchObject([
      { type: 'unassign', user: 'alice@acme.example' },
      { type: 'assign', user: 'bob@acme.example' },
    ]);
  });
});

describe('readless kinds', () => {
  it('BlueprintPublish: force sync when git differs from the last publish; add-on order is no change; prune forgets', () => {
    expect(types(blueprintPublishProvider.plan({ key: 'k', desired: publish() }))).toEqual([
      'force-sync',
    ]);
    expect(
      types(
        blueprintPublishProvider.plan({
          key: 'k',
          desired: publish('v1.1.0'),
          lastApplied: publish(),
        }),
      ),
    ).toEqual(['force-sync']);
    expect(
      blueprintPublishProvider.plan({
        key: 'k',
        desired: publish('v1', ['b', 'a']),
        lastApplied: publish('v1', ['a', 'b']),
      }),
    ).toEqual([]);
    expect(blueprintPublishProvider.plan({ key: 'k', lastApplied: publish() })).toEqual([]);
  });
  it('BlueprintVersion: enable or disable on change only', () => {
    expect(types(blueprintVersionProvider.plan({ key: 'k', desired: version() }))).toEqual([
      'enable-version',
    ]);
    expect(
      blueprintVersionProvider.plan({ key: 'k', desired: version(), lastApplied: version() }),
    ).toEqual([]);
    expect(blueprintVersionProvider.plan({ key: 'k', lastApplied: version() })).toEqual([]);
  });
  it('ClusterControllers: nothing when unchanged or pruned', () => {
    expect(
      clusterControllersProvider.plan({
        key: 'k',
        desired: controllers('a', 'b'),
        lastApplied: controllers('a', 'b'),
      }),
    ).toEqual([]);
    expect(clusterControllersProvider.plan({ key: 'k', lastApplied: controllers('a') })).toEqual(
      [],
    );
  });
});
