import {
  CONDITION_TYPES,
  type ConditionType,
  type ResourceCondition,
} from '../status/conditions.js';
import { resourceView } from './control-views.js';
import type { GraphQuery } from './graph-view.js';

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
}

/** The query of `GET /api/v1/resources`, or the message of a 400 (pure). */
export function resourceQuery(params: URLSearchParams): ResourceQuery | string {
  const condition = conditionParam(params);
  if (typeof condition === 'object') return condition.error;
  const offset = intParam(params, 'offset', 0, 1e9);
  const limit = intParam(params, 'limit', 100, 1000);
  if (typeof offset === 'string') return offset;
  if (typeof limit === 'string') return limit;
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
  };
}

/**
 * One page of the resources that match `query`, in the engine's order, with how many match
 * (pure): the server filters, so a page of 100,000 resources costs the browser one page.
 */
export function resourcePage(
  all: readonly ResourceCondition[],
  query: ResourceQuery,
): { total: number; items: ResourceCondition[] } {
  const needle = query.q?.toLowerCase();
  const matched = all.filter(
    (c) =>
      (!query.condition || c.condition === query.condition) &&
      (!query.project || c.project === query.project) &&
      (!query.workspace || c.workspace === query.workspace) &&
      (!query.kind || c.kind === query.kind) &&
      (!needle || c.key.toLowerCase().includes(needle)),
  );
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
