/** What the layout needs of a node: its id and the project it is drawn in. */
export interface LayoutNode {
  readonly id: string;
  readonly group: string;
}

export interface LayoutEdge {
  readonly source: string;
  readonly target: string;
}

interface Box {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

export interface Layout {
  /** Each node's top-left corner. */
  readonly positions: ReadonlyMap<string, { readonly x: number; readonly y: number }>;
  /** Each project's box around its nodes (the key `''` holds resources of no project). */
  readonly groups: ReadonlyMap<string, Box>;
}

export const NODE_WIDTH = 220;
export const NODE_HEIGHT = 56;
const GAP_X = 60;
const GAP_Y = 16;
const PAD = 16;
const HEADER = 28;
const SHELF_GAP = 40;
/** A rank of more nodes than this wraps into more columns. */
const MAX_ROWS = 12;
/** Projects are packed in rows about this wide, so 1,000 collapsed projects make a grid. */
const SHELF_WIDTH = 8 * (NODE_WIDTH + GAP_X) + 2 * PAD;

function push<K, V>(map: Map<K, V[]>, key: K, value: V): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}

/**
 * Each node's column: the longest chain of edges leading to it, so everything a node waits for
 * stands to its left (pure; an edge closing a cycle is ignored). Linear in nodes and edges.
 */
export function ranks(
  nodes: readonly LayoutNode[],
  edges: readonly LayoutEdge[],
): Map<string, number> {
  const rank = new Map(nodes.map((n) => [n.id, 0]));
  const out = new Map<string, string[]>();
  const indegree = new Map(nodes.map((n) => [n.id, 0]));
  for (const e of edges) {
    if (!rank.has(e.source) || !rank.has(e.target)) continue;
    push(out, e.source, e.target);
    indegree.set(e.target, indegree.get(e.target)! + 1);
  }
  const queue = nodes.filter((n) => indegree.get(n.id) === 0).map((n) => n.id);
  for (let i = 0; i < queue.length; i++) {
    const id = queue[i]!;
    for (const next of out.get(id) ?? []) {
      rank.set(next, Math.max(rank.get(next)!, rank.get(id)! + 1));
      const left = indegree.get(next)! - 1;
      indegree.set(next, left);
      if (left === 0) queue.push(next);
    }
  }
  return rank;
}

/**
 * A layered layout grouped by project (pure, linear in nodes and edges): within a project's box,
 * one column per rank and nodes ordered by the mean row of what they wait for (fewer crossings);
 * boxes packed left to right in shelves. dagre and elkjs took 70–300 ms for 100–300 nodes
 * (bench/README.md), above the 100 ms a focus may take; this takes a few.
 */
export function layoutGraph(nodes: readonly LayoutNode[], edges: readonly LayoutEdge[]): Layout {
  const rank = ranks(nodes, edges);
  const preds = new Map<string, string[]>();
  for (const e of edges) push(preds, e.target, e.source);
  const byGroup = new Map<string, LayoutNode[]>();
  for (const n of nodes) push(byGroup, n.group, n);
  const positions = new Map<string, { x: number; y: number }>();
  const groups = new Map<string, Box>();
  const row = new Map<string, number>();
  let shelfX = 0;
  let shelfY = 0;
  let shelfHeight = 0;
  for (const [group, members] of byGroup) {
    const first = Math.min(...members.map((n) => rank.get(n.id)!));
    const columns: string[][] = [];
    for (const n of members) {
      const c = rank.get(n.id)! - first;
      const column = columns[c];
      if (column) column.push(n.id);
      else columns[c] = [n.id];
    }
    for (const column of columns) {
      if (!column) continue;
      const mean = (id: string) => {
        const rows = (preds.get(id) ?? []).map((p) => row.get(p)).filter((r) => r !== undefined);
        return rows.length === 0
          ? Number.POSITIVE_INFINITY
          : rows.reduce((a, b) => a + b, 0) / rows.length;
      };
      // stable: equal means keep the engine's order
      const sorted = column
        .map((id, i) => ({ id, i, m: mean(id) }))
        .sort((a, b) => a.m - b.m || a.i - b.i);
      sorted.forEach((s, r) => {
        row.set(s.id, r);
        column[r] = s.id;
      });
    }
    // a rank taller than MAX_ROWS wraps into several columns side by side
    const slots: string[][] = columns
      .filter((c) => c !== undefined)
      .flatMap((c) =>
        Array.from({ length: Math.ceil(c.length / MAX_ROWS) }, (_, i) =>
          c.slice(i * MAX_ROWS, (i + 1) * MAX_ROWS),
        ),
      );
    const width = slots.length * (NODE_WIDTH + GAP_X) - GAP_X + 2 * PAD;
    const tallest = Math.max(...slots.map((c) => c.length));
    const height = HEADER + tallest * (NODE_HEIGHT + GAP_Y) - GAP_Y + 2 * PAD;
    if (shelfX > 0 && shelfX + width > SHELF_WIDTH) {
      shelfX = 0;
      shelfY += shelfHeight + SHELF_GAP;
      shelfHeight = 0;
    }
    groups.set(group, { x: shelfX, y: shelfY, width, height });
    slots.forEach((column, c) => {
      column.forEach((id, r) => {
        positions.set(id, {
          x: shelfX + PAD + c * (NODE_WIDTH + GAP_X),
          y: shelfY + HEADER + PAD + r * (NODE_HEIGHT + GAP_Y),
        });
      });
    });
    shelfX += width + SHELF_GAP;
    shelfHeight = Math.max(shelfHeight, height);
  }
  return { positions, groups };
}
