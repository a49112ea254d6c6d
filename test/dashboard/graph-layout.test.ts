import { describe, expect, it } from 'vitest';
import { layoutGraph, NODE_WIDTH, ranks } from '../../web/src/lib/graph-layout.js';
import {
  closeProject,
  graphParams,
  graphSearch,
  graphStateOf,
  INITIAL_GRAPH,
  openNode,
} from '../../web/src/lib/graph-view.js';

const nodes = [
  { id: 'vpc', group: 'a' },
  { id: 'ws', group: 'a' },
  { id: 'vm1', group: 'a' },
  { id: 'vm2', group: 'a' },
  { id: 'user', group: '' },
  { id: 'b-ws', group: 'b' },
];
const edges = [
  { source: 'vpc', target: 'vm1' },
  { source: 'ws', target: 'vm1' },
  { source: 'ws', target: 'vm2' },
];

describe('the graph layout', () => {
  it('ranks each node after everything it waits for, and survives a cycle', () => {
    expect(Object.fromEntries(ranks(nodes, edges))).toEqual({
      vpc: 0,
      ws: 0,
      vm1: 1,
      vm2: 1,
      user: 0,
      'b-ws': 0,
    });
    const cyclic = ranks(
      [
        { id: 'x', group: '' },
        { id: 'y', group: '' },
      ],
      [
        { source: 'x', target: 'y' },
        { source: 'y', target: 'x' },
      ],
    );
    expect([...cyclic.keys()]).toEqual(['x', 'y']);
  });

  it('puts what waits to the right, each project in its own box holding its nodes', () => {
    const { positions, groups } = layoutGraph(nodes, edges);
    expect(positions.get('vm1')!.x).toBeGreaterThan(positions.get('ws')!.x);
    expect(positions.get('vpc')!.x).toBe(positions.get('ws')!.x);
    expect([...groups.keys()]).toEqual(['a', '', 'b']);
    for (const n of nodes) {
      const box = groups.get(n.group)!;
      const p = positions.get(n.id)!;
      expect(p.x).toBeGreaterThanOrEqual(box.x);
      expect(p.x + NODE_WIDTH).toBeLessThanOrEqual(box.x + box.width);
      expect(p.y).toBeGreaterThanOrEqual(box.y);
      expect(p.y).toBeLessThan(box.y + box.height);
    }
    // boxes do not overlap
    const boxes = [...groups.values()];
    for (const [i, a] of boxes.entries()) {
      for (const b of boxes.slice(i + 1)) {
        const apart =
          a.x + a.width <= b.x ||
          b.x + b.width <= a.x ||
          a.y + a.height <= b.y ||
          b.y + b.height <= a.y;
        expect(apart).toBe(true);
      }
    }
  });

  it('wraps a tall rank into columns and packs 1,000 projects into a grid', () => {
    const many = Array.from({ length: 40 }, (_, i) => ({ id: `vm${i}`, group: 'p' }));
    const { groups } = layoutGraph(many, []);
    expect(groups.get('p')!.width).toBeGreaterThan(3 * NODE_WIDTH);
    const projects = Array.from({ length: 1000 }, (_, i) => ({
      id: `project:${i}`,
      group: String(i),
    }));
    const grid = layoutGraph(projects, []).groups;
    const xs = new Set([...grid.values()].map((b) => b.x));
    expect(xs.size).toBeGreaterThanOrEqual(5); // a grid, not one tall column
    expect(xs.size).toBeLessThanOrEqual(10);
  });
});

describe("the graph's state", () => {
  it('opens a project, then a workspace (with its project), and closes a project whole', () => {
    const a = openNode(INITIAL_GRAPH, { id: 'project:ml', type: 'project' });
    expect(a.expand).toEqual(['ml']);
    const b = openNode(a, { id: 'workspace:ml/dev', type: 'workspace' });
    expect(b.expand).toEqual(['ml', 'ml/dev']);
    expect(openNode(INITIAL_GRAPH, { id: 'workspace:ml/dev', type: 'workspace' }).expand).toEqual([
      'ml',
      'ml/dev',
    ]);
    expect(closeProject(b, 'ml').expand).toEqual([]);
    const f = openNode(b, { id: 'Workspace/ml/dev', type: 'resource' });
    expect(f.focus).toBe('Workspace/ml/dev');
  });

  it('asks the API for the focus alone, or for the opened groups and the search', () => {
    expect(
      graphParams({ ...INITIAL_GRAPH, expand: ['ml', 'ml/dev'], q: 'gpu' }, 'Degraded'),
    ).toEqual({
      expand: 'ml,ml/dev',
      condition: 'Degraded',
      q: 'gpu',
    });
    expect(
      graphParams({ ...INITIAL_GRAPH, q: 'x', focus: 'Service/ml/vpc', depth: 2 }, undefined),
    ).toEqual({
      focus: 'Service/ml/vpc',
      depth: 2,
      condition: undefined,
    });
  });

  it('keeps its state in the URL: what it writes, it reads back', () => {
    const opened = { ...INITIAL_GRAPH, expand: ['ml', 'ml/dev'], q: 'gpu 1' };
    expect(graphSearch(opened, 'Degraded')).toBe(
      '?condition=Degraded&expand=ml%2Cml%2Fdev&q=gpu+1',
    );
    expect(graphStateOf(graphSearch(opened, 'Degraded'))).toEqual(opened);
    const focused = { ...INITIAL_GRAPH, focus: 'Service/ml/vpc', depth: 3 };
    expect(graphStateOf(graphSearch(focused, undefined))).toEqual(focused);
    expect(graphSearch(INITIAL_GRAPH, undefined)).toBe('');
    // what a hand-edited link gets wrong falls back to the defaults
    expect(graphStateOf('?depth=99&expand=,,ml')).toEqual({ ...INITIAL_GRAPH, expand: ['ml'] });
  });
});
