import { describe, expect, it } from 'vitest';
import {
  resourcePage,
  resourceQuery,
  type TreeItem,
} from '../../src/controller/http/control-queries.js';
import type { ResourceCondition } from '../../src/controller/status/conditions.js';
import { syntheticConditions } from '../dashboard/helpers/synthetic.js';

let order = 0;
function item(key: string, condition = 'Ready', dependsOn: string[] = []): ResourceCondition {
  const parts = key.split('/');
  const project = parts.length > 2 ? parts[1] : undefined;
  const workspace = parts.length > 3 ? parts[2] : undefined;
  return {
    key,
    kind: parts[0] as ResourceCondition['kind'],
    name: parts.at(-1)!,
    ...(project ? { project } : {}),
    ...(workspace ? { workspace } : {}),
    condition: condition as ResourceCondition['condition'],
    reason: condition === 'Ready' ? 'Applied' : 'Drift',
    lastTransitionTime: '2026-01-01T00:00:00Z',
    order: order++,
    dependsOn,
  };
}

/** The dashboard's page of `all` for `query` (a query string), every failure thrown. */
function page(all: readonly ResourceCondition[], query: string) {
  const q = resourceQuery(new URLSearchParams(query));
  if (typeof q === 'string') throw new Error(q);
  return resourcePage(all, q);
}
const lines = (items: readonly unknown[]) =>
  (items as TreeItem[]).map((i) => `${i.depth} ${i.key}`);

describe('GET /api/v1/resources?view=tree: the dashboard list paged by the server', () => {
  const items = [
    item('User/alice'),
    item('Service/ml/vpc-ml'),
    item('Workspace/ml/exp'),
    item('Cluster/ml/train'),
    item('Workspace/platform/shared'),
    item('ComputeInstance/ml/exp/box', 'Drifted'),
    item('ClusterControllers/ml/train', 'Progressing'),
    item('BlueprintPublish/ml/train-stack', 'Ready', ['Cluster/ml/train']),
    item('ComputeInstance/platform/shared/h100'),
  ];

  it('nests instances under workspaces and add-ons under clusters, projects in engine order', () => {
    const answer = page(items, 'view=tree&groups=1');
    expect(answer.total).toBe(9);
    expect(lines(answer.items)).toEqual([
      '1 User/alice',
      '1 Service/ml/vpc-ml',
      '1 Workspace/ml/exp',
      '2 ComputeInstance/ml/exp/box',
      '1 Cluster/ml/train',
      '2 ClusterControllers/ml/train',
      '2 BlueprintPublish/ml/train-stack',
      '1 Workspace/platform/shared',
      '2 ComputeInstance/platform/shared/h100',
    ]);
    expect(answer.groups).toEqual([
      { total: 1, counts: { Ready: 1 } },
      { project: 'ml', total: 6, counts: { Ready: 4, Drifted: 1, Progressing: 1 } },
      { project: 'platform', total: 2, counts: { Ready: 2 } },
    ]);
  });

  it('filters on the server: a filtered page comes with its total and its projects', () => {
    const answer = page(items, 'view=tree&groups=1&q=BOX');
    expect(answer.total).toBe(1);
    // its workspace was filtered out, so the instance is a root of its project
    expect(lines(answer.items)).toEqual(['1 ComputeInstance/ml/exp/box']);
    expect(answer.groups).toEqual([{ project: 'ml', total: 1, counts: { Drifted: 1 } }]);
    expect(page(items, 'view=tree&condition=Progressing').total).toBe(1);
    expect(page(items, 'view=tree&q=ml').groups).toBeUndefined();
  });

  it('pages 100,000 resources: each page of the tree in order, the total of the whole list', () => {
    const all = syntheticConditions(100_000);
    const first = page(all, 'view=tree&groups=1&limit=200');
    expect(first.total).toBe(100_000);
    expect(first.items).toHaveLength(200);
    expect(first.groups).toHaveLength(all.filter((c) => c.kind === 'Service').length + 1);
    const next = page(all, 'view=tree&offset=200&limit=200');
    const seen = new Set([...first.items, ...next.items].map((c) => c.key));
    expect(seen.size).toBe(400);
    const drifted = page(all, 'view=tree&groups=1&condition=Drifted&q=gpu');
    expect(drifted.total).toBe(
      all.filter((c) => c.condition === 'Drifted' && c.key.includes('gpu')).length,
    );
    expect(drifted.groups!.reduce((n, g) => n + g.total, 0)).toBe(drifted.total);
  });

  it('orders by a column on the server, grouped by project, flat, ascending or descending', () => {
    const changed = items.map((c, i) => ({
      ...c,
      lastTransitionTime: `2026-01-0${(i % 3) + 1}T00:00:00Z`,
    }));
    const keys = (query: string) => page(changed, query).items.map((c) => c.key);
    // no project first, then ml, then platform; inside each, by the name as the list shows it
    expect(lines(page(changed, 'view=tree&sort=name').items)).toEqual([
      '1 User/alice',
      '1 Workspace/ml/exp',
      '1 ComputeInstance/ml/exp/box',
      '1 Cluster/ml/train',
      '1 ClusterControllers/ml/train',
      '1 BlueprintPublish/ml/train-stack',
      '1 Service/ml/vpc-ml',
      '1 Workspace/platform/shared',
      '1 ComputeInstance/platform/shared/h100',
    ]);
    expect(keys('view=tree&sort=-kind&q=ml/')).toEqual([
      'Workspace/ml/exp',
      'Service/ml/vpc-ml',
      'ComputeInstance/ml/exp/box',
      'ClusterControllers/ml/train',
      'Cluster/ml/train',
      'BlueprintPublish/ml/train-stack',
    ]);
    expect(keys('view=tree&sort=-project&kind=Workspace')).toEqual([
      'Workspace/platform/shared',
      'Workspace/ml/exp',
    ]);
    // equal conditions keep the key order
    expect(keys('view=tree&sort=condition&project=ml').slice(0, 3)).toEqual([
      'ComputeInstance/ml/exp/box',
      'ClusterControllers/ml/train',
      'BlueprintPublish/ml/train-stack',
    ]);
    const byChange = page(changed, 'view=tree&sort=-changed&groups=1');
    const times = byChange.items.filter((c) => c.project === 'ml').map((c) => c.lastTransitionTime);
    expect(times).toEqual([...times].sort().reverse());
    // the projects' counts follow the sorted list: one group per project, in its order
    expect(byChange.groups!.map((g) => g.project)).toEqual([undefined, 'ml', 'platform']);
    // the plain list (no view) sorts too, not grouped
    expect(keys('sort=-name&limit=3')).toEqual([
      'Service/ml/vpc-ml',
      'BlueprintPublish/ml/train-stack',
      'Cluster/ml/train', // equal names: the key breaks the tie, ascending
    ]);
  });

  it('pages a sorted list of 100,000 without a gap or a repeat', () => {
    const all = syntheticConditions(100_000);
    const seen = new Set<string>();
    let previous: ResourceCondition | undefined;
    for (let offset = 0; offset < 3000; offset += 1000) {
      for (const c of page(all, `view=tree&sort=-changed&offset=${offset}&limit=1000`).items) {
        seen.add(c.key);
        if (previous && previous.project === c.project) {
          expect(previous.lastTransitionTime >= c.lastTransitionTime).toBe(true);
        }
        previous = c;
      }
    }
    expect(seen.size).toBe(3000);
  });

  it('answers a 400 message for a sort it does not know, naming the ones it does', () => {
    expect(resourceQuery(new URLSearchParams('sort=size'))).toBe(
      'sort must be one of name, kind, condition, project, changed, with - before it for descending (got "size")',
    );
    expect(resourceQuery(new URLSearchParams('sort=--name'))).toMatch(/^sort must be one of/);
    expect(resourceQuery(new URLSearchParams('sort='))).not.toHaveProperty('sort');
  });

  it('answers a 400 message for an unknown view', () => {
    expect(resourceQuery(new URLSearchParams('view=graph'))).toBe('view must be tree or absent');
  });
});
