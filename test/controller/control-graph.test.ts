import { describe, expect, it } from 'vitest';
import {
  graphQuery,
  resourcePage,
  resourceQuery,
} from '../../src/controller/http/control-queries.js';
import {
  fleetQuery,
  fleetView,
  scheduleOf,
  schedulesAt,
} from '../../src/controller/http/fleet-view.js';
import { graphView } from '../../src/controller/http/graph-view.js';
import { type Manifest, manifestKey } from '../../src/model/manifest.js';
import { syntheticConditions } from '../dashboard/helpers/synthetic.js';

// 1 user, then projects of 3 + (workspace + 9 instances) × 3 = 33 resources
const all = syntheticConditions(1 + 33 * 3, 33);
const params = (s: string) => new URLSearchParams(s);
const query = (s: string) => {
  const q = graphQuery(params(s));
  if (typeof q === 'string') throw new Error(q);
  return q;
};

describe('GET /api/v1/resources: server-side filters and pages', () => {
  it('filters by project, workspace, kind, condition and a part of the key, then pages', () => {
    const q = resourceQuery(params('project=proj-0001&kind=ComputeInstance&q=GPU-1&limit=2'));
    if (typeof q === 'string') throw new Error(q);
    const page = resourcePage(all, q);
    expect(page.total).toBe(3); // gpu-1 in each of the three workspaces
    expect(page.items.map((c) => c.key)).toEqual([
      'ComputeInstance/proj-0001/ws-0/gpu-1',
      'ComputeInstance/proj-0001/ws-1/gpu-1',
    ]);
    const next = resourceQuery(params('project=proj-0001&kind=ComputeInstance&q=gpu-1&offset=2'));
    expect(resourcePage(all, next as never).items.map((c) => c.key)).toEqual([
      'ComputeInstance/proj-0001/ws-2/gpu-1',
    ]);
    const ws = resourceQuery(params('workspace=ws-2&condition=Ready'));
    expect(resourcePage(all, ws as never).items.every((c) => c.workspace === 'ws-2')).toBe(true);
  });

  it('answers a 400 message for a bad condition, limit or offset', () => {
    expect(resourceQuery(params('condition=Nope'))).toMatch(/condition must be one of/);
    expect(resourceQuery(params('limit=1001'))).toBe('limit must be an integer in 0..1000');
    expect(resourceQuery(params('offset=-1'))).toMatch(/offset must be/);
    expect(graphQuery(params('depth=9'))).toBe('depth must be an integer in 0..5');
  });
});

describe('GET /api/v1/graph: grouped, collapsed, focused', () => {
  it('collapses every project by default, counting its resources by condition', () => {
    const g = graphView(all, query(''));
    expect(g.nodes.map((n) => n.id)).toEqual([
      'User/ops@example.com',
      'project:proj-0000',
      'project:proj-0001',
      'project:proj-0002',
    ]);
    const p1 = g.nodes[2]!;
    expect(p1.size).toBe(33);
    expect(Object.values(p1.counts!).reduce((a, b) => a + b, 0)).toBe(33);
    expect(g.edges).toEqual([]); // every edge stays inside its project
    expect(g.matched).toBe(all.length);
  });

  it('expands a project into its resources and collapsed workspaces, edges aggregated', () => {
    const g = graphView(all, query('expand=proj-0001'));
    const ids = g.nodes.filter((n) => n.group === 'proj-0001').map((n) => n.id);
    expect(ids).toEqual([
      'Service/proj-0001/vpc',
      'Cluster/proj-0001/k8s',
      'ClusterControllers/proj-0001/k8s',
      'Workspace/proj-0001/ws-0',
      'workspace:proj-0001/ws-0',
      'Workspace/proj-0001/ws-1',
      'workspace:proj-0001/ws-1',
      'Workspace/proj-0001/ws-2',
      'workspace:proj-0001/ws-2',
    ]);
    expect(g.edges).toContainEqual({
      source: 'Service/proj-0001/vpc',
      target: 'workspace:proj-0001/ws-1',
      count: 9,
    });
    expect(g.edges).toContainEqual({
      source: 'Cluster/proj-0001/k8s',
      target: 'ClusterControllers/proj-0001/k8s',
      count: 1,
    });
    const opened = graphView(all, query('expand=proj-0001,proj-0001/ws-1'));
    expect(opened.nodes.some((n) => n.id === 'ComputeInstance/proj-0001/ws-1/gpu-4')).toBe(true);
    expect(opened.edges).toContainEqual({
      source: 'Workspace/proj-0001/ws-1',
      target: 'ComputeInstance/proj-0001/ws-1/gpu-4',
      count: 1,
    });
  });

  it("focuses on a resource's neighbourhood, both ways, to the depth asked", () => {
    const one = graphView(all, query('focus=Service/proj-0002/vpc&depth=1'));
    expect(one.nodes).toHaveLength(1 + 27); // the VPC and the instances waiting for it
    const two = graphView(all, query('focus=Service/proj-0002/vpc&depth=2'));
    expect(two.nodes.map((n) => n.id)).toContain('Workspace/proj-0002/ws-0'); // via an instance
    expect(two.nodes.every((n) => n.type === 'resource')).toBe(true);
  });

  it('keeps only matching resources and the groups that hold one', () => {
    const g = graphView(all, query('q=proj-0002/ws-1/gpu-3'));
    expect(g.matched).toBe(1);
    expect(g.nodes.map((n) => n.id)).toEqual(['ComputeInstance/proj-0002/ws-1/gpu-3']);
    // a search finding many keeps them in their projects
    const many = syntheticConditions(10_000);
    const gpus = graphView(many, query('q=GPU'));
    expect(gpus.matched).toBeGreaterThan(200);
    expect(gpus.nodes.every((n) => n.type === 'project')).toBe(true);
    expect(gpus.nodes.reduce((a, n) => a + (n.size ?? 0), 0)).toBe(gpus.matched);
    const degraded = graphView(all, query('condition=Degraded'));
    expect(degraded.matched).toBe(all.filter((c) => c.condition === 'Degraded').length);
  });

  it('caps the nodes it answers and says so', () => {
    const big = syntheticConditions(10_000);
    const g = graphView(big, { expand: new Set(big.map((c) => c.project ?? '')), maxNodes: 500 });
    expect(g.nodes).toHaveLength(500);
    expect(g.truncated).toBe(true);
    const ids = new Set(g.nodes.map((n) => n.id));
    expect(g.edges.every((e) => ids.has(e.source) && ids.has(e.target))).toBe(true);
  });
});

describe('GET /api/v1/fleet: the GPU instances git declares', () => {
  const instance = (name: string, profile: string, power?: 'off') =>
    ({
      apiVersion: 'paas.envmgmt.io/v1',
      kind: 'ComputeInstance',
      metadata: {
        name,
        project: 'ml',
        workspace: 'dev',
        ...(power ? { annotations: { 'platctl.io/power-state': power } } : {}),
      },
      spec: { computeProfile: { name: profile } },
    }) as unknown as Manifest;
  const manifests = new Map<string, Manifest>([
    ['ComputeInstance/ml/dev/a', instance('a', 'bmaas-h100')],
    ['ComputeInstance/ml/dev/b', instance('b', 'bmaas-l40s', 'off')],
    ['ComputeInstance/ml/dev/c', instance('c', 'cpu-small')],
    ['Workspace/ml/dev', { kind: 'Workspace', metadata: { name: 'dev', project: 'ml' } } as never],
  ]);

  it('lists instances with git power state, GPUs and totals, filtered and paged', () => {
    const q = fleetQuery(params('power=on&limit=1'));
    if (typeof q === 'string') throw new Error(q);
    const prices = { currency: 'USD', profiles: { 'cpu-small': { gpus: 0 } } };
    const view = fleetView(manifests, [], prices, q);
    expect(view).toMatchObject({ total: 2, on: 2, off: 1, gpusOn: 8 });
    expect(view.items).toEqual([
      {
        key: 'ComputeInstance/ml/dev/a',
        project: 'ml',
        workspace: 'dev',
        name: 'a',
        profile: 'bmaas-h100',
        power: 'on',
        gpus: 8,
      },
    ]);
    expect(fleetQuery(params('power=maybe'))).toBe('power must be on or off');
  });

  it("shows the schedule selecting an instance and its next transitions at the API's clock", () => {
    const schedule = {
      apiVersion: 'platctl.io/v1alpha1',
      kind: 'PowerSchedule',
      metadata: { name: 'office-hours' },
      spec: {
        timeZone: 'Europe/Paris',
        periods: [{ days: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'], start: '08:00', stop: '20:00' }],
        selector: { names: ['a', 'b'] },
      },
    } as unknown as Manifest;
    const desired = [...manifests.values(), schedule];
    // Wednesday 2026-11-25 11:00 in Paris: inside the period
    const now = Date.parse('2026-11-25T10:00:00Z');
    const q = fleetQuery(params('')) as Exclude<ReturnType<typeof fleetQuery>, string>;
    const view = fleetView(manifests, [], undefined, q, schedulesAt(desired, now));
    const byName = new Map(view.items.map((i) => [i.name, i.schedule]));
    expect(byName.get('a')).toMatchObject({
      schedule: 'PowerSchedule/office-hours',
      timeZone: 'Europe/Paris',
      state: 'on',
      why: 'period',
      next: [
        { at: '2026-11-25T19:00:00.000Z', state: 'off' },
        { at: '2026-11-26T07:00:00.000Z', state: 'on' },
      ],
    });
    // declared off in git: no schedule powers it, so none is shown; c is not selected
    expect(byName.get('b')).toBeUndefined();
    expect(byName.get('c')).toBeUndefined();
    // the resource page's one-instance form answers the same
    const loaded = desired.map((m) => ({ manifest: m, key: manifestKey(m) }));
    expect(scheduleOf(loaded, 'ComputeInstance/ml/dev/a', now)).toEqual(byName.get('a'));
    expect(scheduleOf(loaded, 'ComputeInstance/ml/dev/c', now)).toBeUndefined();
  });
});

describe('the unfiltered graph read from the per-project index', () => {
  it('answers as a pass over every resource does, cross-project and user edges included', () => {
    // over 200 resources, so that a search matching every key keeps them in their projects
    const linked = syntheticConditions(1 + 33 * 8, 33).map((c) =>
      c.key === 'ComputeInstance/proj-0001/ws-0/gpu-0'
        ? { ...c, dependsOn: [...c.dependsOn, 'Service/proj-0000/vpc', 'User/ops@example.com'] }
        : c.key === 'Workspace/proj-0002/ws-1'
          ? { ...c, dependsOn: ['ComputeInstance/proj-0001/ws-0/gpu-0'] }
          : c,
    );
    const sorted = (g: ReturnType<typeof graphView>) => ({
      nodes: g.nodes,
      edges: [...g.edges].sort((a, b) =>
        `${a.source} ${a.target}`.localeCompare(`${b.source} ${b.target}`),
      ),
      matched: g.matched,
    });
    for (const expand of [
      '',
      'proj-0000',
      'proj-0001',
      'proj-0001,proj-0001/ws-0',
      'proj-0000,proj-0001,proj-0002',
    ]) {
      const fast = graphView(linked, query(`expand=${expand}`));
      // `q` matching every key takes the pass over every resource
      const full = graphView(linked, query(`expand=${expand}&q=/`));
      expect(sorted(fast), expand).toEqual(sorted(full));
    }
    expect(graphView(linked, query('')).edges).toEqual(
      expect.arrayContaining([
        { source: 'project:proj-0000', target: 'project:proj-0001', count: 1 },
        { source: 'User/ops@example.com', target: 'project:proj-0001', count: 1 },
        { source: 'project:proj-0001', target: 'project:proj-0002', count: 1 },
      ]),
    );
  });
});
