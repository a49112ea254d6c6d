import type { ConditionType, ResourceCondition } from '../status/conditions.js';

// The dependency graph's nodes and edges, and the index `graph-view.ts` answers from: built once
// per conditions array (the status replaces it after each run), so an answer at 100,000 resources
// reads only what it shows.

/** A resource, or a collapsed project or workspace standing for the resources in it. */
export interface GraphNode {
  /** The resource's key, `project:P` or `workspace:P/W`. */
  readonly id: string;
  readonly type: 'resource' | 'project' | 'workspace';
  readonly label: string;
  /** The project the node is drawn in; `''` for resources of no project (users). */
  readonly group: string;
  readonly kind?: string;
  readonly condition?: ConditionType;
  readonly reason?: string;
  /** A collapsed group: its (matching) resources by condition, and how many in all. */
  readonly counts?: Partial<Record<ConditionType, number>>;
  readonly size?: number;
}

/** `target` waits for `source` (`count` resource edges when either end is a group). */
export interface GraphEdge {
  readonly source: string;
  readonly target: string;
  readonly count: number;
}

/** A project's resources, in the engine's order, and their counts by condition. */
interface ProjectIndex {
  readonly members: ResourceCondition[];
  readonly counts: Partial<Record<ConditionType, number>>;
}

export interface Index {
  readonly byKey: ReadonlyMap<string, ResourceCondition>;
  /** key → the keys that wait for it. */
  readonly dependents: ReadonlyMap<string, readonly string[]>;
  /** In the engine's order of first appearance: each project, and each resource of none. */
  readonly order: readonly (ResourceCondition | string)[];
  readonly projects: ReadonlyMap<string, ProjectIndex>;
  /** `before\nafter` → resource edges between two projects. */
  readonly projectEdges: ReadonlyMap<string, GraphEdge>;
}

// the status replaces its conditions array after each run, so one index per array stays true
const indexes = new WeakMap<readonly ResourceCondition[], Index>();

export function indexOf(all: readonly ResourceCondition[]): Index {
  let index = indexes.get(all);
  if (index) return index;
  const byKey = new Map(all.map((c) => [c.key, c]));
  const dependents = new Map<string, string[]>();
  for (const c of all) {
    for (const d of c.dependsOn) {
      const list = dependents.get(d);
      if (list) list.push(c.key);
      else dependents.set(d, [c.key]);
    }
  }
  const order: (ResourceCondition | string)[] = [];
  const projects = new Map<string, ProjectIndex & { counts: Record<string, number> }>();
  for (const c of all) {
    if (c.project === undefined) {
      order.push(c);
      continue;
    }
    let p = projects.get(c.project);
    if (!p) {
      p = { members: [], counts: {} };
      projects.set(c.project, p);
      order.push(c.project);
    }
    p.members.push(c);
    p.counts[c.condition] = (p.counts[c.condition] ?? 0) + 1;
  }
  const projectEdges = new Map<string, { source: string; target: string; count: number }>();
  for (const c of all) {
    for (const d of c.dependsOn) {
      const before = byKey.get(d)?.project;
      if (before === undefined || c.project === undefined || before === c.project) continue;
      const id = `${before}\n${c.project}`;
      const edge = projectEdges.get(id);
      if (edge) edge.count++;
      else
        projectEdges.set(id, {
          source: `project:${before}`,
          target: `project:${c.project}`,
          count: 1,
        });
    }
  }
  index = { byKey, dependents, order, projects, projectEdges };
  indexes.set(all, index);
  return index;
}

/** The keys within `depth` steps of `focus`, both ways (pure). */
export function neighbourhood(index: Index, focus: string, depth: number): Set<string> {
  const seen = new Set([focus]);
  let frontier = [focus];
  for (let step = 0; step < depth && frontier.length > 0; step++) {
    const next: string[] = [];
    for (const key of frontier) {
      const around = [
        ...(index.byKey.get(key)?.dependsOn ?? []),
        ...(index.dependents.get(key) ?? []),
      ];
      for (const k of around) {
        if (!seen.has(k) && index.byKey.has(k)) {
          seen.add(k);
          next.push(k);
        }
      }
    }
    frontier = next;
  }
  return seen;
}
