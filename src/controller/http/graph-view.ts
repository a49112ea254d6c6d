import type { ConditionType, ResourceCondition } from '../status/conditions.js';
import {
  type GraphEdge,
  type GraphNode,
  type Index,
  indexOf,
  neighbourhood,
} from './graph-index.js';

/**
 * What `GET /api/v1/graph` shows: projects collapsed unless named in `expand` (a project's
 * workspaces collapsed unless `project/workspace` is named too), or, with `focus`, one resource
 * and what it waits for and what waits for it up to `depth` steps. `condition` and `q` (a part of
 * the key, any case) keep only the resources that match, and the groups that hold one; a search
 * that finds fewer than 200 shows them as resources, uncollapsed.
 */
export interface GraphQuery {
  readonly expand: ReadonlySet<string>;
  readonly focus?: string;
  /** @default 1 */
  readonly depth?: number;
  readonly condition?: ConditionType;
  readonly q?: string;
  /** At most this many nodes; the rest are left out and `truncated` is true. @default 2000 */
  readonly maxNodes?: number;
}

export interface GraphView {
  readonly nodes: readonly GraphNode[];
  readonly edges: readonly GraphEdge[];
  /** Resources that matched `condition` and `q`. */
  readonly matched: number;
  readonly truncated: boolean;
}

/** A search finding fewer resources than this shows them, not their projects. */
const FEW = 200;

function countUpTo<T>(items: readonly T[], test: (item: T) => boolean, max: number): number {
  let n = 0;
  for (const item of items) if (test(item) && ++n >= max) break;
  return n;
}

/** The node a resource is drawn as: itself, or the collapsed group that holds it. */
function nodeOf(c: ResourceCondition, expand: ReadonlySet<string>, focused: boolean): string {
  if (focused || c.project === undefined) return c.key;
  if (!expand.has(c.project)) return `project:${c.project}`;
  if (c.workspace !== undefined && c.kind !== 'Workspace') {
    const ws = `${c.project}/${c.workspace}`;
    if (!expand.has(ws)) return `workspace:${ws}`;
  }
  return c.key;
}

function resourceNode(c: ResourceCondition): GraphNode {
  const label = c.workspace !== undefined ? `${c.workspace}/${c.name}` : c.name;
  return {
    id: c.key,
    type: 'resource',
    label: `${c.kind} ${label}`,
    group: c.project ?? '',
    kind: c.kind,
    condition: c.condition,
    reason: c.reason,
  };
}

/**
 * The graph of the engine's order for `conditions` as `query` asks (pure; the index of
 * dependents is kept per conditions array, so a focus at 100,000 resources reads only the
 * neighbourhood). Nodes come in the engine's order; edges point from what comes first.
 */
export function graphView(all: readonly ResourceCondition[], query: GraphQuery): GraphView {
  const index = indexOf(all);
  const needle = query.q?.toLowerCase();
  const matches = (c: ResourceCondition) =>
    (!query.condition || c.condition === query.condition) &&
    (!needle || c.key.toLowerCase().includes(needle));
  const candidates =
    query.focus !== undefined
      ? [...neighbourhood(index, query.focus, query.depth ?? 1)].map((k) => index.byKey.get(k)!)
      : all;
  // a focus, or a search that found few, shows each resource: nothing to open to find them
  const focused =
    query.focus !== undefined ||
    (needle !== undefined && countUpTo(candidates, matches, FEW) < FEW);
  if (!focused && !needle && !query.condition) return overview(index, all.length, query);
  const nodes = new Map<string, GraphNode & { counts?: Record<string, number>; size?: number }>();
  const drawnAs = new Map<string, string>();
  let matched = 0;
  for (const c of candidates) {
    // the focused resource shows whatever the filters say
    if (!matches(c) && c.key !== query.focus) continue;
    matched++;
    const id = nodeOf(c, query.expand, focused);
    drawnAs.set(c.key, id);
    if (id === c.key) {
      nodes.set(id, resourceNode(c));
      continue;
    }
    let group = nodes.get(id);
    if (!group) {
      const isProject = id.startsWith('project:');
      group = {
        id,
        type: isProject ? 'project' : 'workspace',
        label: isProject ? `project ${c.project}` : `workspace ${c.project}/${c.workspace}`,
        group: c.project ?? '',
        counts: {},
        size: 0,
      };
      nodes.set(id, group);
    }
    group.counts![c.condition] = (group.counts![c.condition] ?? 0) + 1;
    group.size!++;
  }
  const max = query.maxNodes ?? 2000;
  const kept = [...nodes.values()].slice(0, max);
  const keptIds = new Set(kept.map((n) => n.id));
  const edges = new Map<string, { source: string; target: string; count: number }>();
  for (const [key, target] of drawnAs) {
    if (!keptIds.has(target)) continue;
    for (const before of index.byKey.get(key)?.dependsOn ?? []) {
      const source = drawnAs.get(before);
      if (source === undefined || source === target || !keptIds.has(source)) continue;
      const id = `${source}\n${target}`;
      const edge = edges.get(id);
      if (edge) edge.count++;
      else edges.set(id, { source, target, count: 1 });
    }
  }
  return { nodes: kept, edges: [...edges.values()], matched, truncated: nodes.size > max };
}

type Building = GraphNode & { counts?: Record<string, number>; size?: number };

/**
 * The unfiltered graph from the index (pure): a collapsed project is its precomputed node and
 * edges, so only the opened projects' resources are read: O(projects + what is opened) instead
 * of a pass over every resource and dependency (250-650 ms at 100,000, bench/README.md).
 */
function overview(index: Index, total: number, query: GraphQuery): GraphView {
  const nodes = new Map<string, Building>();
  const drawnAs = new Map<string, string>();
  const draw = (c: ResourceCondition) => {
    const id = nodeOf(c, query.expand, false);
    drawnAs.set(c.key, id);
    if (id === c.key) return void nodes.set(id, resourceNode(c));
    let group = nodes.get(id);
    if (!group) {
      group = {
        id,
        type: 'workspace',
        label: `workspace ${c.project}/${c.workspace}`,
        group: c.project ?? '',
        counts: {},
        size: 0,
      };
      nodes.set(id, group);
    }
    group.counts![c.condition] = (group.counts![c.condition] ?? 0) + 1;
    group.size!++;
  };
  for (const entry of index.order) {
    if (typeof entry !== 'string') draw(entry);
    else if (query.expand.has(entry)) for (const c of index.projects.get(entry)!.members) draw(c);
    else {
      const p = index.projects.get(entry)!;
      nodes.set(`project:${entry}`, {
        id: `project:${entry}`,
        type: 'project',
        label: `project ${entry}`,
        group: entry,
        counts: { ...p.counts },
        size: p.members.length,
      });
    }
  }
  const max = query.maxNodes ?? 2000;
  const kept = [...nodes.values()].slice(0, max);
  const keptIds = new Set(kept.map((n) => n.id));
  const edges = new Map<string, GraphEdge & { count: number }>();
  const add = (source: string, target: string, count: number) => {
    if (source === target || !keptIds.has(source) || !keptIds.has(target)) return;
    const id = `${source}\n${target}`;
    const edge = edges.get(id);
    if (edge) edge.count += count;
    else edges.set(id, { source, target, count });
  };
  // a resource's project node when that project is collapsed
  const collapsed = (key: string) => {
    const project = index.byKey.get(key)?.project;
    return project !== undefined && !query.expand.has(project) ? `project:${project}` : undefined;
  };
  for (const [key, target] of drawnAs) {
    for (const before of index.byKey.get(key)?.dependsOn ?? []) {
      const source = drawnAs.get(before) ?? collapsed(before);
      if (source !== undefined) add(source, target, 1);
    }
    for (const after of index.dependents.get(key) ?? []) {
      const into = collapsed(after);
      if (into !== undefined) add(target, into, 1);
    }
  }
  for (const e of index.projectEdges.values()) {
    if (!query.expand.has(e.source.slice(8)) && !query.expand.has(e.target.slice(8))) {
      add(e.source, e.target, e.count);
    }
  }
  return { nodes: kept, edges: [...edges.values()], matched: total, truncated: nodes.size > max };
}
