import { describe, expect, it } from 'vitest';
import type { Action } from '../../src/model/action.js';
import { keyEdges } from '../../src/model/edges.js';
import { type Manifest, manifestKey } from '../../src/model/manifest.js';
import { order } from '../../src/reconcile/order.js';
import { act } from './helpers.js';
import { m } from './manifests.js';

const mapOf = (...ms: Manifest[]) => new Map(ms.map((x) => [manifestKey(x), x]));
const deps = (actions: Action[], id: string) => actions.find((a) => a.id === id)?.dependsOn;

describe('implicit edges', () => {
  it.each([
    [
      'workspace-before-instance',
      [m.workspace('p', 'ws'), m.instance('p', 'ws', 'i')],
      'Workspace/p/ws',
      'ComputeInstance/p/ws/i',
    ],
    [
      'vpc-before-compute',
      [m.service('p', 'vpc'), m.instance('p', 'ws', 'i')],
      'Service/p/vpc',
      'ComputeInstance/p/ws/i',
    ],
    [
      'user-before-assignment',
      [m.user('u@x.io'), m.assignment('p', 'a', 'u@x.io')],
      'User/u@x.io',
      'ProjectAssignment/p/a',
    ],
    [
      'cluster-before-publish',
      [m.cluster('p', 'c'), m.publish('p', 'bp', 'c')],
      'Cluster/p/c',
      'BlueprintPublish/p/bp',
    ],
    [
      'cluster-before-controllers',
      [m.cluster('p', 'c'), m.controllers('p', 'c')],
      'Cluster/p/c',
      'ClusterControllers/p/c',
    ],
    [
      'version-before-publish',
      [m.version('p', 'v', 'v1.1.0'), m.publish('p', 'bp', 'c')],
      'BlueprintVersion/p/v',
      'BlueprintPublish/p/bp',
    ],
  ] as const)('%s', (rule, ms, before, after) => {
    expect(keyEdges(mapOf(...ms))).toContainEqual({ before, after, rule });
  });

  it('adds no vpc edge across projects and no version edge for another version', () => {
    const edges = keyEdges(
      mapOf(
        m.service('other', 'vpc'),
        m.instance('p', 'ws', 'i'),
        m.version('p', 'v', 'v2.0.0'),
        m.publish('p', 'bp', 'c'),
      ),
    );
    expect(edges).toEqual([]);
  });

  it('follows explicit dependsOn with the referrer project as default', () => {
    const i = m.instance('p', 'ws', 'i', { dependsOn: [{ kind: 'Cluster', name: 'c' }] });
    expect(keyEdges(mapOf(m.cluster('p', 'c'), i))).toContainEqual({
      before: 'Cluster/p/c',
      after: 'ComputeInstance/p/ws/i',
      rule: 'depends-on',
    });
  });
});

describe('order', () => {
  it('makes compute wait for the VPC create and publish', () => {
    const ms = mapOf(m.service('p', 'vpc'), m.instance('p', 'ws', 'i'));
    const { actions } = order(
      [
        act('Service/p/vpc#create', [], 'create'),
        act('Service/p/vpc#publish', [], 'publish'),
        act('ComputeInstance/p/ws/i#create', [], 'create'),
      ],
      ms,
    );
    expect(deps(actions, 'Service/p/vpc#publish')).toEqual(['Service/p/vpc#create']);
    expect(deps(actions, 'ComputeInstance/p/ws/i#create')).toEqual([
      'Service/p/vpc#create',
      'Service/p/vpc#publish',
    ]);
  });

  it('puts CAPI before CAPG whatever order they were proposed in', () => {
    const capg = act('ClusterControllers/p/c#controller-update', [], 'controller-update', {
      component: 'capg',
      version: '2',
    });
    const capi = act('ClusterControllers/p/c#controller-update#2', [], 'controller-update', {
      component: 'capi',
      version: '1',
    });
    const { actions } = order([capg, capi], mapOf(m.controllers('p', 'c')));
    expect(deps(actions, capg.id)).toEqual([capi.id]);
    expect(deps(actions, capi.id)).toEqual([]);
  });

  it('defers a controller update on a cluster created in the same run', () => {
    const { actions, diagnostics } = order(
      [
        act('Cluster/p/c#create', [], 'create'),
        act('ClusterControllers/p/c#controller-update', [], 'controller-update', {
          component: 'capi',
          version: '1',
        }),
      ],
      mapOf(m.cluster('p', 'c'), m.controllers('p', 'c')),
    );
    expect(actions.map((a) => a.id)).toEqual(['Cluster/p/c#create']);
    expect(diagnostics[0]).toMatchObject({ severity: 'warning', key: 'ClusterControllers/p/c' });
    expect(diagnostics[0]?.message).toMatch(/deferred to the next run/);
  });

  it('deletes in reverse dependency order', () => {
    const { actions } = order(
      [
        act('Workspace/p/ws#delete', [], 'delete'),
        act('ComputeInstance/p/ws/i#delete', [], 'delete'),
      ],
      mapOf(m.workspace('p', 'ws'), m.instance('p', 'ws', 'i')),
    );
    expect(deps(actions, 'Workspace/p/ws#delete')).toEqual(['ComputeInstance/p/ws/i#delete']);
    expect(deps(actions, 'ComputeInstance/p/ws/i#delete')).toEqual([]);
  });

  it('reports a cycle with its path', () => {
    const a = m.workspace('p', 'a');
    const b = m.workspace('p', 'b');
    a.metadata.dependsOn = [{ kind: 'Workspace', name: 'b' }];
    b.metadata.dependsOn = [{ kind: 'Workspace', name: 'a' }];
    const { diagnostics } = order(
      [act('Workspace/p/a#create', [], 'create'), act('Workspace/p/b#create', [], 'create')],
      mapOf(a, b),
    );
    expect(diagnostics).toHaveLength(1);
    expect(diagnostics[0]?.severity).toBe('error');
    expect(diagnostics[0]?.message).toMatch(
      /^dependency cycle: (Workspace p\/a -> Workspace p\/b -> Workspace p\/a|Workspace p\/b -> Workspace p\/a -> Workspace p\/b)$/,
    );
  });
});
