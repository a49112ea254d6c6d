import {
  CONDITION_TYPES,
  type ConditionType,
  type ResourceCondition,
} from '../status/conditions.js';
import { resourceView } from './control-views.js';
import type { GraphQuery } from './graph-view.js';
import { type ResourceSort, sortParam, sortRows } from './resource-sort.js';
import { type ProjectGroupView, treeMatch, treeSlice } from './resource-tree.js';

/** An integer query parameter in `0..max`, `def` when absent; a string is the 400's message. */
export function intParam(
  params: URLSearchParams,
  name: string,
  def: number,
  max: number,
): number | string {
  const raw = params.get(name);
  if (raw === null || raw === '') return def;
  const n = Number(raw);
  if (!Number.isInteger(n) || n < 0 || n > max) return `${name} must be an integer in 0..${max}`;
  return n;
}

function conditionParam(params: URLSearchParams): ConditionType | undefined | { error: string } {
  const condition = params.get('condition') || undefined;
  if (condition && !CONDITION_TYPES.includes(condition as ConditionType)) {
    return { error: `condition must be one of ${CONDITION_TYPES.join(', ')}` };
  }
  return condition as ConditionType | undefined;
}

/** `GET /api/v1/resources`' filters and page. */
export interface ResourceQuery {
  readonly offset: number;
  readonly limit: number;
  readonly condition?: ConditionType;
  readonly project?: string;
  readonly workspace?: string;
  readonly kind?: string;
  /** A part of the key, any case. */
  readonly q?: string;
  /** `view=tree`: the dashboard's list order (projects, holders before what they hold), depths. */
  readonly tree?: boolean;
  /** `groups=1` (with `view=tree`): each project that matched, with its counts. */
  readonly groups?: boolean;
  /** `sort=`: a column instead of the engine's order (with `view=tree`, grouped by project). */
  readonly sort?: ResourceSort;
}

/** The query of `GET /api/v1/resources`, or the message of a 400 (pure). */
export function resourceQuery(params: URLSearchParams): ResourceQuery | string {
  const condition = conditionParam(params);
  if (typeof condition === 'object') return condition.error;
  const offset = intParam(params, 'offset', 0, 1e9);
  const limit = intParam(params, 'limit', 100, 1000);
  if (typeof offset === 'string') return offset;
  if (typeof limit === 'string') return limit;
  const view = params.get('view');
  if (view !== null && view !== '' && view !== 'tree') return 'view must be tree or absent';
  const sort = sortParam(params.get('sort'));
  if (typeof sort === 'string') return sort;
  const text = (name: string) => {
    const v = params.get(name);
    return v ? { [name]: v } : {};
  };
  return {
    offset,
    limit,
    ...(condition ? { condition } : {}),
    ...text('project'),
    ...text('workspace'),
    ...text('kind'),
    ...text('q'),
    ...(view === 'tree' ? { tree: true } : {}),
    ...(view === 'tree' && params.get('groups') === '1' ? { groups: true } : {}),
    ...(sort ? { sort } : {}),
  };
}

/** A resource of the list in tree order, with its depth there (1: a root of its project). */
export type TreeItem = ResourceCondition & { readonly depth: number };

/** `GET /api/v1/resources`' answer. */
export interface ResourcePageView {
  readonly total: number;
  readonly items: ResourceCondition[] | TreeItem[];
  /** With `groups=1`: the projects that matched, in the list's order. */
  readonly groups?: readonly ProjectGroupView[];
}

/**
 * One page of the resources that match `query`, in the engine's order or `sort`'s (with `tree`, the
 * dashboard's list order and depths), with how many match (pure): the server filters, so a page
 * of 100,000 resources costs the browser one page.
 */
export function resourcePage(
  all: readonly ResourceCondition[],
  query: ResourceQuery,
): ResourcePageView {
  if (query.tree) {
    // the filter's matches are kept per conditions array: the pages of one scroll filter once
    const match = treeMatch(all, query);
    const items = treeSlice(all, match, query.offset, query.offset + query.limit);
    return {
      total: match.rows.length,
      items: items.map(({ c, depth }) => ({ ...resourceView(c), depth })),
      ...(query.groups ? { groups: match.groups } : {}),
    };
  }
  const needle = query.q?.toLowerCase();
  let matched = all.filter(
    (c) =>
      (!query.condition || c.condition === query.condition) &&
      (!query.project || c.project === query.project) &&
      (!query.workspace || c.workspace === query.workspace) &&
      (!query.kind || c.kind === query.kind) &&
      (!needle || c.key.toLowerCase().includes(needle)),
  );
  if (query.sort) {
    const order = sortRows(Array.from(matched.keys()), matched, query.sort, false);
    matched = order.map((i) => matched[i]!);
  }
  return {
    total: matched.length,
    items: matched.slice(query.offset, query.offset + query.limit).map(resourceView),
  };
}

/** The query of `GET /api/v1/graph`, or the message of a 400 (pure). */
export function graphQuery(params: URLSearchParams): GraphQuery | string {
  const condition = conditionParam(params);
  if (typeof condition === 'object') return condition.error;
  const depth = intParam(params, 'depth', 1, 5);
  if (typeof depth === 'string') return depth;
  const expand = new Set(
    params
      .getAll('expand')
      .flatMap((v) => v.split(','))
      .filter((v) => v !== ''),
  );
  const focus = params.get('focus') || undefined;
  const q = params.get('q') || undefined;
  return {
    expand,
    depth,
    ...(focus ? { focus } : {}),
    ...(condition ? { condition } : {}),
    ...(q ? { q } : {}),
  };
}
