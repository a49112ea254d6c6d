import { describe, expect, it } from 'vitest';
import type { Manifest } from '../../src/manifests/types.js';
import { blueprintPublishProvider } from '../../src/providers/blueprint-publish.js';
import { blueprintVersionProvider } from '../../src/providers/blueprint-version.js';
import { clusterControllersProvider } from '../../src/providers/cluster-controllers.js';
import { computeInstanceProvider } from '../../src/providers/compute-instance.js';
import { projectAssignmentProvider } from '../../src/providers/project-assignment.js';
import { serviceProvider } from '../../src/providers/service.js';
import type { LiveObject } from '../../src/providers/types.js';
import { userProvider } from '../../src/providers/user.js';
import { workspaceProvider } from '../../src/providers/workspace.js';
import {
  assignment,
  controllers,
  instance,
  publish,
  service,
  user,
  version,
  workspace,
} from './fixtures.js';

const types = (actions: readonly { type: string }[]) => actions.map((a) => a.type);
const liveOf = (m: Manifest, extra: Partial<LiveObject> = {}): LiveObject => {
  const { dependsOn: _d, annotations: _a, ...metadata } = m.metadata;
  return {
    key: 'k',
    ref: {
      kind: m.kind as never,
      name: m.metadata.name,
      project: m.metadata.project,
      workspace: m.metadata.workspace,
    },
    body: JSON.parse(JSON.stringify({ ...m, metadata })),
    ...extra,
  };
};

describe('Service rules', () => {
  it('absent: create then publish', () =>
    expect(types(serviceProvider.plan({ key: 'k', desired: service() }))).toEqual([
      'create',
      'publish',
    ]));
  it.each(['not_deployed', 'failed'])('%s: publish', (status) => {
    const [a] = serviceProvider.plan({
      key: 'k',
      desired: service(),
      live: liveOf(service(), { status }),
    });
    expect(a).toMatchObject({
      type: 'publish',
      reason: { code: 'not-deployed', message: `VPC service ml/vpc is ${status}` },
    });
  });
  it.each(['deploying', 'deployed'])('%s: nothing', (status) =>
    expect(
      serviceProvider.plan({ key: 'k', desired: service(), live: liveOf(service(), { status }) }),
    ).toEqual([]),
  );
  it('spec changed: no action, an error diagnostic (the API cannot update a service)', () => {
    const input = {
      key: 'k',
      desired: service('10.1.0.0/24'),
      live: liveOf(service(), { status: 'deployed' }),
    };
    expect(serviceProvider.plan(input)).toEqual([]);
    expect(serviceProvider.diagnose?.(input)).toEqual([
      {
        severity: 'error',
        key: 'k',
        message: expect.stringContaining(
          'spec.variables[Default Subnet CIDR].value changed from 10.0.0.0/24 to 10.1.0.0/24',
        ),
      },
    ]);
  });
  it('pruned: delete', () =>
    expect(types(serviceProvider.plan({ key: 'k', live: liveOf(service()) }))).toEqual(['delete']));
});

describe('ComputeInstance rules', () => {
  const live = (status: string, powerState?: 'on' | 'off', m = instance()) =>
    liveOf(m, { status, ...(powerState ? { powerState } : {}) });
  it('absent: create, publish, and stop when declared off', () => {
    expect(types(computeInstanceProvider.plan({ key: 'k', desired: instance() }))).toEqual([
      'create',
      'publish',
    ]);
    expect(
      types(computeInstanceProvider.plan({ key: 'k', desired: instance('6', 'off') })),
    ).toEqual(['create', 'publish', 'power']);
  });
  it('changed: update then publish, with the variable named in the reason', () => {
    const actions = computeInstanceProvider.plan({
      key: 'k',
      desired: instance('12'),
      live: live('success', 'on'),
      lastApplied: instance(),
    });
    expect(types(actions)).toEqual(['update', 'publish']);
    expect(actions[0]).toMatchObject({
      reason: {
        code: 'changed',
        message: 'spec.variables[Contract Term].value changed from 6 to 12',
      },
      changes: [
        { op: 'replace', path: '/spec/variables/Contract Term/value', before: '6', after: '12' },
      ],
    });
  });
  it('changed on the platform only: drift', () => {
    const [update] = computeInstanceProvider.plan({
      key: 'k',
      desired: instance(),
      live: live('success', 'on', instance('24')),
      lastApplied: instance(),
    });
    expect(update).toMatchObject({ type: 'update', reason: { code: 'drift' } });
  });
  it.each(['created', 'updated', 'failed'])('%s: publish', (status) =>
    expect(
      types(computeInstanceProvider.plan({ key: 'k', desired: instance(), live: live(status) })),
    ).toEqual(['publish']),
  );
  it('provisioning: nothing yet', () =>
    expect(
      computeInstanceProvider.plan({ key: 'k', desired: instance(), live: live('provisioning') }),
    ).toEqual([]));
  it('power annotation against the live power state', () => {
    expect(
      computeInstanceProvider.plan({ key: 'k', desired: instance(), live: live('success', 'off') }),
    ).toMatchObject([{ type: 'power', powerAction: 'start' }]);
    expect(
      computeInstanceProvider.plan({
        key: 'k',
        desired: instance('6', 'off'),
        live: live('success', 'on'),
      }),
    ).toMatchObject([{ type: 'power', powerAction: 'stop' }]);
    expect(
      computeInstanceProvider.plan({
        key: 'k',
        desired: instance('6', 'off'),
        live: live('success', 'off'),
      }),
    ).toEqual([]);
  });
  it('pruned: delete, unless already deleting', () => {
    expect(types(computeInstanceProvider.plan({ key: 'k', live: live('success') }))).toEqual([
      'delete',
    ]);
    expect(computeInstanceProvider.plan({ key: 'k', live: live('deleting') })).toEqual([]);
  });
});

describe('Workspace rules', () => {
  it('a field removed from git but last applied is removed; unmanaged live fields are ignored', () => {
    const applied = workspace({ description: 'old' });
    const onPlatform = liveOf({
      ...applied,
      metadata: { ...applied.metadata, displayName: 'set in console' },
    });
    const [update] = workspaceProvider.plan({
      key: 'k',
      desired: workspace(),
      live: onPlatform,
      lastApplied: applied,
    });
    expect(update).toMatchObject({
      type: 'update',
      reason: { code: 'changed' },
      changes: [{ op: 'remove', path: '/metadata/description', before: 'old' }],
    });
  });
  it('absent: create; pruned: delete; pruned and gone: nothing', () => {
    expect(types(workspaceProvider.plan({ key: 'k', desired: workspace() }))).toEqual(['create']);
    expect(types(workspaceProvider.plan({ key: 'k', live: liveOf(workspace()) }))).toEqual([
      'delete',
    ]);
    expect(workspaceProvider.plan({ key: 'k' })).toEqual([]);
  });
});

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
