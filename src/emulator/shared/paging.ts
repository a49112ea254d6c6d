import type { EmuRequest } from '../http/types.js';

/** Paging and order of a list, read from a query the OpenAPI document has validated and defaulted. */
export interface ListQuery {
  readonly limit: number;
  readonly offset: number;
  readonly order: 'ASC' | 'DESC';
  readonly orderBy: string;
}

/**
 * Reads limit/offset/order and the sort field (named `orderByParam` in the query: the projects
 * list spells it `orderby`). Defaults come from the document; the fallbacks here only cover a
 * document without them.
 */
export function listQuery(
  req: EmuRequest,
  orderByParam = 'orderBy',
  fallbackOrderBy = 'createdAt',
): ListQuery {
  const q = req.query;
  return {
    limit: typeof q.limit === 'number' ? q.limit : 50,
    offset: typeof q.offset === 'number' ? q.offset : 0,
    order: q.order === 'ASC' ? 'ASC' : 'DESC',
    orderBy: typeof q[orderByParam] === 'string' ? (q[orderByParam] as string) : fallbackOrderBy,
  };
}

/**
 * Sorts `items` by `query.orderBy` (read through `field`), ties broken by `tieBreak`, and cuts one
 * page. `count` is the total before paging. Pure; never mutates `items`.
 */
export function sortAndPage<T>(
  items: readonly T[],
  query: ListQuery,
  field: (item: T, name: string) => string | number,
  tieBreak: (item: T) => string,
): { count: number; items: T[] } {
  const sign = query.order === 'ASC' ? 1 : -1;
  const compare = (a: T, b: T): number => {
    const x = field(a, query.orderBy);
    const y = field(b, query.orderBy);
    const primary =
      typeof x === 'number' && typeof y === 'number' ? x - y : String(x).localeCompare(String(y));
    return primary || tieBreak(a).localeCompare(tieBreak(b));
  };
  const sorted = [...items].sort((a, b) => sign * compare(a, b));
  return { count: sorted.length, items: sorted.slice(query.offset, query.offset + query.limit) };
}
