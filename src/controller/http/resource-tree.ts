import type { ConditionType, ResourceCondition } from '../status/conditions.js';
import { type ResourceSort, sortRows } from './resource-sort.js';

/** Kinds that hold others in the list: a workspace its instances, a cluster its add-ons. */
const CONTAINERS: ReadonlySet<string> = new Set(['Workspace', 'Cluster']);

/** The resources that match a filter: their rows in the list's order, and their projects. */
export interface TreeMatch {
  readonly rows: readonly number[];
  readonly groups: readonly ProjectGroupView[];
  /** Sorted by a column: no nesting, every resource at depth 1 under its project. */
  readonly flat?: boolean;
}

/** One project of a filtered list: how many of its resources matched, by condition. */
export interface ProjectGroupView {
  /** Undefined: the resources of no project (users). */
  readonly project?: string;
  readonly total: number;
  /** Only the conditions with a resource. */
  readonly counts: Partial<Record<ConditionType, number>>;
}

/** The list's order: no object per resource (at 100,000, garbage was most of its cost). */
interface TreeIndex {
  /** The resource on each row of the list. */
  readonly rows: readonly ResourceCondition[];
  /** The row of each row's holder, -1 for a root. */
  readonly parents: Int32Array;
  /** The last filters asked, newest last: a scroll asks the same filter page after page. */
  readonly matches: Map<string, TreeMatch>;
  /** The keys in lower case, for `q`: made on the first search, once per conditions array. */
  lower?: readonly string[];
}

const MATCHES_KEPT = 8;
// the status replaces its conditions array after each run, so one index per array stays true
const indexes = new WeakMap<readonly ResourceCondition[], TreeIndex>();

/**
 * The holder of a resource in the list (an instance's workspace, a cluster add-on's cluster, of
 * its own project), through the key the engine gives it or `dependsOn`; undefined: a root. No
 * array is made per resource: at 100,000 resources the garbage was most of the index's cost.
 */
function holderKey(
  c: ResourceCondition,
  containers: ReadonlyMap<string, ResourceCondition>,
): string | undefined {
  if (CONTAINERS.has(c.kind)) return undefined;
  // a holder in another project would split that project's rows in two
  const ok = (k: string) => k !== c.key && containers.get(k)?.project === c.project;
  if (c.kind === 'ComputeInstance' && c.project && c.workspace) {
    const ws = `Workspace/${c.project}/${c.workspace}`;
    if (ok(ws)) return ws;
  }
  if (c.kind === 'ClusterControllers' && c.project) {
    const cluster = `Cluster/${c.project}/${c.name}`;
    if (ok(cluster)) return cluster;
  }
  for (const k of c.dependsOn) {
    if ((k.startsWith('Workspace/') || k.startsWith('Cluster/')) && ok(k)) return k;
  }
  return undefined;
}

const inOrder = (a: ResourceCondition, b: ResourceCondition) =>
  a.order - b.order || a.key.localeCompare(b.key);

/**
 * Every resource in the list's order (pure, once per conditions array): projects in the order
 * the engine reaches them (users, of none, first among them by that order), each project's
 * resources depth-first in engine order, instances under their workspace and controllers and
 * publishes under their cluster.
 */
function indexOf(all: readonly ResourceCondition[]): TreeIndex {
  const found = indexes.get(all);
  if (found) return found;
  // the status keeps its conditions in engine order already: sort only when they are not
  let sorted = all;
  for (let i = 1; i < all.length; i++) {
    if (inOrder(all[i - 1]!, all[i]!) > 0) {
      sorted = [...all].sort(inOrder);
      break;
    }
  }
  // only workspaces and clusters hold others: a map of those, not of every resource
  const containers = new Map<string, ResourceCondition>();
  for (const c of sorted) if (CONTAINERS.has(c.kind)) containers.set(c.key, c);
  const children = new Map<string, ResourceCondition[]>();
  const roots = new Map<string | undefined, ResourceCondition[]>();
  for (const c of sorted) {
    const holder = holderKey(c, containers);
    const list = holder === undefined ? roots.get(c.project) : children.get(holder);
    if (list) list.push(c);
    else if (holder === undefined) roots.set(c.project, [c]);
    else children.set(holder, [c]);
  }
  const rows: ResourceCondition[] = [];
  const parents = new Int32Array(sorted.length);
  const walk = (c: ResourceCondition, parent: number): void => {
    const at = rows.length;
    rows.push(c);
    parents[at] = parent;
    const kids = CONTAINERS.has(c.kind) ? children.get(c.key) : undefined;
    if (kids) for (const child of kids) walk(child, at);
  };
  // a Map keeps insertion order: each project where its first resource comes in engine order
  for (const list of roots.values()) for (const c of list) walk(c, -1);
  const index = { rows, parents, matches: new Map<string, TreeMatch>() };
  indexes.set(all, index);
  return index;
}

/** What a resource must match; `q` a part of the key, any case. */
export interface TreeFilter {
  readonly condition?: ConditionType;
  readonly project?: string;
  readonly workspace?: string;
  readonly kind?: string;
  readonly q?: string;
  /** A column to order by instead of the engine's order (the list is then flat per project). */
  readonly sort?: ResourceSort;
}

/**
 * The rows of `all` that match `filter`, in the list's order (or `filter.sort`'s, grouped by
 * project), with their projects (pure).
 */
export function treeMatch(all: readonly ResourceCondition[], filter: TreeFilter): TreeMatch {
  const index = indexOf(all);
  const id = JSON.stringify([
    filter.condition,
    filter.project,
    filter.workspace,
    filter.kind,
    filter.q,
    filter.sort?.field,
    filter.sort?.descending,
  ]);
  const cached = index.matches.get(id);
  if (cached) return cached;
  const needle = filter.q?.toLowerCase();
  if (needle && !index.lower) index.lower = index.rows.map((c) => c.key.toLowerCase());
  const lower = index.lower ?? [];
  let rows: number[] = [];
  const groups: {
    project?: string;
    total: number;
    counts: Partial<Record<ConditionType, number>>;
  }[] = [];
  index.rows.forEach((c, i) => {
    if (filter.condition && c.condition !== filter.condition) return;
    if (filter.project && c.project !== filter.project) return;
    if (filter.workspace && c.workspace !== filter.workspace) return;
    if (filter.kind && c.kind !== filter.kind) return;
    if (needle && !lower[i]!.includes(needle)) return;
    rows.push(i);
  });
  if (filter.sort) rows = sortRows(rows, index.rows, filter.sort, true);
  for (const i of rows) {
    const c = index.rows[i]!;
    let group = groups.at(-1);
    if (!group || group.project !== c.project) {
      group = { ...(c.project !== undefined ? { project: c.project } : {}), total: 0, counts: {} };
      groups.push(group);
    }
    group.total++;
    group.counts[c.condition] = (group.counts[c.condition] ?? 0) + 1;
  }
  const match = { rows, groups, ...(filter.sort ? { flat: true } : {}) };
  index.matches.set(id, match);
  if (index.matches.size > MATCHES_KEPT) index.matches.delete(index.matches.keys().next().value!);
  return match;
}

/**
 * The resources of rows `from`..`to` of `match` with their depth in the list (1: a root of its
 * project), counting only holders that matched too: an instance whose workspace was filtered out
 * is a root (pure; the cost is the page's, not the list's).
 */
export function treeSlice(
  all: readonly ResourceCondition[],
  match: TreeMatch,
  from: number,
  to: number,
): { c: ResourceCondition; depth: number }[] {
  const { rows, parents } = indexOf(all);
  if (match.flat) return match.rows.slice(from, to).map((i) => ({ c: rows[i]!, depth: 1 }));
  const matched = (row: number) => {
    // rows ascend, so a binary search finds whether the holder matched
    let lo = 0;
    let hi = match.rows.length - 1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      const v = match.rows[mid]!;
      if (v === row) return true;
      if (v < row) lo = mid + 1;
      else hi = mid - 1;
    }
    return false;
  };
  return match.rows.slice(from, to).map((i) => {
    let depth = 1;
    for (let p = parents[i]!; p >= 0; p = parents[p]!) if (matched(p)) depth++;
    return { c: rows[i]!, depth };
  });
}
