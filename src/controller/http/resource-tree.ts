import type { ConditionType, ResourceCondition } from '../status/conditions.js';

/** Kinds that hold others in the list: a workspace its instances, a cluster its add-ons. */
const CONTAINERS: ReadonlySet<string> = new Set(['Workspace', 'Cluster']);

/** One resource in the list's order, and the index of its holder there (-1: a root). */
interface TreeRow {
  readonly c: ResourceCondition;
  readonly parent: number;
  /** The key in lower case, for `q` (made once per conditions array, not per request). */
  readonly lower: string;
}

/** The resources that match a filter: their rows in the list's order, and their projects. */
export interface TreeMatch {
  readonly rows: readonly number[];
  readonly groups: readonly ProjectGroupView[];
}

/** One project of a filtered list: how many of its resources matched, by condition. */
export interface ProjectGroupView {
  /** Undefined: the resources of no project (users). */
  readonly project?: string;
  readonly total: number;
  /** Only the conditions with a resource. */
  readonly counts: Partial<Record<ConditionType, number>>;
}

interface TreeIndex {
  readonly rows: readonly TreeRow[];
  /** The last filters asked, newest last: a scroll asks the same filter page after page. */
  readonly matches: Map<string, TreeMatch>;
}

const MATCHES_KEPT = 8;
// the status replaces its conditions array after each run, so one index per array stays true
const indexes = new WeakMap<readonly ResourceCondition[], TreeIndex>();

/**
 * The holder of a resource in the list (an instance's workspace, a cluster add-on's cluster, of
 * its own project), through `dependsOn` or the key the engine gives it; undefined: a root.
 */
function holderKey(
  c: ResourceCondition,
  present: ReadonlyMap<string, ResourceCondition>,
): string | undefined {
  if (CONTAINERS.has(c.kind)) return undefined;
  const candidates = c.dependsOn.filter((k) => CONTAINERS.has(k.split('/')[0] ?? ''));
  if (c.kind === 'ComputeInstance' && c.project && c.workspace) {
    candidates.unshift(`Workspace/${c.project}/${c.workspace}`);
  }
  if (c.kind === 'ClusterControllers' && c.project)
    candidates.unshift(`Cluster/${c.project}/${c.name}`);
  // a holder in another project would split that project's rows in two
  return candidates.find((k) => k !== c.key && present.get(k)?.project === c.project);
}

/**
 * Every resource in the list's order (pure, once per conditions array): projects in the order
 * the engine reaches them (users, of none, first among them by that order), each project's
 * resources depth-first in engine order, instances under their workspace and controllers and
 * publishes under their cluster.
 */
function indexOf(all: readonly ResourceCondition[]): TreeIndex {
  const found = indexes.get(all);
  if (found) return found;
  const sorted = [...all].sort((a, b) => a.order - b.order || a.key.localeCompare(b.key));
  const byKey = new Map(sorted.map((c) => [c.key, c]));
  const children = new Map<string, ResourceCondition[]>();
  const roots = new Map<string | undefined, ResourceCondition[]>();
  for (const c of sorted) {
    const holder = holderKey(c, byKey);
    const list = holder === undefined ? roots.get(c.project) : children.get(holder);
    if (list) list.push(c);
    else if (holder === undefined) roots.set(c.project, [c]);
    else children.set(holder, [c]);
  }
  const rows: TreeRow[] = [];
  const walk = (c: ResourceCondition, parent: number): void => {
    const at = rows.length;
    rows.push({ c, parent, lower: c.key.toLowerCase() });
    for (const child of children.get(c.key) ?? []) walk(child, at);
  };
  // a Map keeps insertion order: each project where its first resource comes in engine order
  for (const list of roots.values()) for (const c of list) walk(c, -1);
  const index = { rows, matches: new Map<string, TreeMatch>() };
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
}

/** The rows of `all` that match `filter`, in the list's order, with their projects (pure). */
export function treeMatch(all: readonly ResourceCondition[], filter: TreeFilter): TreeMatch {
  const index = indexOf(all);
  const id = JSON.stringify([
    filter.condition,
    filter.project,
    filter.workspace,
    filter.kind,
    filter.q,
  ]);
  const cached = index.matches.get(id);
  if (cached) return cached;
  const needle = filter.q?.toLowerCase();
  const rows: number[] = [];
  const groups: {
    project?: string;
    total: number;
    counts: Partial<Record<ConditionType, number>>;
  }[] = [];
  index.rows.forEach(({ c, lower }, i) => {
    if (filter.condition && c.condition !== filter.condition) return;
    if (filter.project && c.project !== filter.project) return;
    if (filter.workspace && c.workspace !== filter.workspace) return;
    if (filter.kind && c.kind !== filter.kind) return;
    if (needle && !lower.includes(needle)) return;
    rows.push(i);
    let group = groups.at(-1);
    if (!group || group.project !== c.project) {
      group = { ...(c.project !== undefined ? { project: c.project } : {}), total: 0, counts: {} };
      groups.push(group);
    }
    group.total++;
    group.counts[c.condition] = (group.counts[c.condition] ?? 0) + 1;
  });
  const match = { rows, groups };
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
  const { rows } = indexOf(all);
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
    for (let p = rows[i]!.parent; p >= 0; p = rows[p]!.parent) if (matched(p)) depth++;
    return { c: rows[i]!.c, depth };
  });
}
