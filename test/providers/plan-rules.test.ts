import { describe, expect, it } from 'vitest';
import { computeInstanceProvider } from '../../src/providers/compute-instance.js';
import { serviceProvider } from '../../src/providers/service.js';
import { workspaceProvider } from '../../src/providers/workspace.js';
import { instance, service, workspace } from './fixtures.js';
import { liveOf, types } from './plan-helpers.js';

describe('Service rules', () => {
  it('absent: create then publish', () =>
    expect(types(serviceProvider.plan({ key: 'k', desired: service() }))).toEqual([
      'create',
      'publish',
    ]));
  it.each(['not_deployed', 'failed', 'deploying'])('%s: publish', (status) => {
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
  it.each(['deployed'])('%s: nothing', (status) =>
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
