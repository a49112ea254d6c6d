import type { Condition, ResourceItem } from '../api/types.js';

/** The group of resources without a project (users). */
export const NO_PROJECT = '(organization)';

/** Kinds that hold others in the graph: a workspace its instances, a cluster its add-ons. */
const CONTAINERS: ReadonlySet<string> = new Set(['Workspace', 'Cluster']);

/** One project of the graph: its resources as a forest in engine order, and their conditions. */
export interface ProjectGroup {
  readonly project: string;
  /** Lowest engine order inside: projects are listed in the order the engine reaches them. */
  readonly order: number;
  readonly counts: Readonly<Record<Condition, number>>;
  readonly roots: readonly TreeNode[];
}

interface TreeNode {
  readonly item: ResourceItem;
  readonly children: readonly TreeNode[];
}

/** A line of the flattened, virtualized list. */
export type Row =
  | { readonly type: 'project'; readonly group: ProjectGroup; readonly collapsed: boolean }
  | { readonly type: 'resource'; readonly item: ResourceItem; readonly depth: number };

const emptyCounts = (): Record<Condition, number> => ({
  Ready: 0,
  Progressing: 0,
  Degraded: 0,
  Drifted: 0,
  Suspended: 0,
  Orphaned: 0,
});

/**
 * The parent of a resource in the graph (pure): an instance's workspace, a cluster add-on's
 * (controllers, blueprint publish) cluster, found through `dependsOn` or, for instances and
 * controllers, through the key the engine gives their holder. Undefined: a root of its project
 * (holders themselves always are, so the graph has no cycle).
 */
function parentKey(item: ResourceItem, present: ReadonlySet<string>): string | undefined {
  if (CONTAINERS.has(item.kind)) return undefined;
  const candidates = [...item.dependsOn.filter((k) => CONTAINERS.has(k.split('/')[0] ?? ''))];
  if (item.kind === 'ComputeInstance' && item.project && item.workspace) {
    candidates.unshift(`Workspace/${item.project}/${item.workspace}`);
  }
  if (item.kind === 'ClusterControllers' && item.project) {
    candidates.unshift(`Cluster/${item.project}/${item.name}`);
  }
  return candidates.find((k) => k !== item.key && present.has(k));
}

/**
 * Groups resources by project and nests them (projects → VPC services / workspaces → instances;
 * clusters → controllers / publishes), every level in engine order. Pure; linear in the input
 * plus the sort.
 */
export function buildProjects(items: readonly ResourceItem[]): ProjectGroup[] {
  const sorted = [...items].sort((a, b) => a.order - b.order || a.key.localeCompare(b.key));
  const present = new Set(sorted.map((i) => i.key));
  const children = new Map<string, TreeNode[]>();
  const byProject = new Map<string, { order: number; counts: Record<Condition, number> }>();
  const roots = new Map<string, TreeNode[]>();
  const nodes = new Map<string, TreeNode>();
  for (const item of sorted) {
    const kids: TreeNode[] = [];
    children.set(item.key, kids);
    nodes.set(item.key, { item, children: kids });
  }
  for (const item of sorted) {
    const project = item.project ?? NO_PROJECT;
    let group = byProject.get(project);
    if (!group) {
      group = { order: item.order, counts: emptyCounts() };
      byProject.set(project, group);
      roots.set(project, []);
    }
    group.counts[item.condition]++;
    const node = nodes.get(item.key)!;
    const parent = parentKey(item, present);
    if (parent !== undefined) children.get(parent)!.push(node);
    else roots.get(project)!.push(node);
  }
  return [...byProject.entries()]
    .map(([project, g]) => ({ project, ...g, roots: roots.get(project)! }))
    .sort((a, b) => a.order - b.order || a.project.localeCompare(b.project));
}

/** The rows to draw: each project's header, then (unless collapsed) its tree depth-first. Pure. */
export function flatten(groups: readonly ProjectGroup[], collapsed: ReadonlySet<string>): Row[] {
  const rows: Row[] = [];
  const walk = (node: TreeNode, depth: number): void => {
    rows.push({ type: 'resource', item: node.item, depth });
    for (const child of node.children) walk(child, depth + 1);
  };
  for (const group of groups) {
    const isCollapsed = collapsed.has(group.project);
    rows.push({ type: 'project', group, collapsed: isCollapsed });
    if (!isCollapsed) for (const root of group.roots) walk(root, 1);
  }
  return rows;
}
