import { PlatctlError } from '../../core/errors.js';
import type { ApiClient, ApiRequest } from '../../model/api.js';

/**
 * The largest `limit` a request asks for. The spec gives no maximum; the emulator, like the
 * platforms of this kind we know of, refuses a `limit` over 1000 with a 400 (docs/api-assumptions.md,
 * "Paging and ordering"). Asking for "the rest of count" in one page above it would fail every list
 * longer than the first page plus this.
 */
const MAX_PAGE_SIZE = 1000;

/** How to read one list endpoint's pages. */
export interface ListPaging<T> {
  /** The page's array out of a response body. */
  readonly items: (body: unknown) => readonly T[] | undefined;
  /** The total that matched (`count`), when the body says. */
  readonly count: (body: unknown) => number | undefined;
  /** An item's identity, to tell a repeated item from a new one. @default JSON of the item */
  readonly key?: (item: T) => string;
  /**
   * Whether the endpoint documents `offset`. The projects list does not: it is read with `limit`
   * alone. @default true
   */
  readonly offset?: boolean;
}

/**
 * A list that cannot be read whole: the platform reports more items than it will return, because
 * it caps its pages and ignores `offset` (or has no `offset`). Never a silently short list.
 */
export class IncompleteListError extends PlatctlError {
  constructor(operation: string, got: number, total: number, why: string) {
    super('api', `${operation}: the platform returned ${got} of ${total} items (${why})`);
    this.name = 'IncompleteListError';
  }
}

/**
 * Reads every item of a list (I/O), sending only the parameters the endpoint documents and no
 * page size of its own: the first request carries none, so the platform's default page decides;
 * later ones ask for `offset` = the distinct items seen so far and `limit` = the rest of `count`,
 * at most {@link MAX_PAGE_SIZE} (so a list of N costs 1 + ceil((N - first page) / 1000) requests). Items are de-duplicated by key,
 * so a server that ignores `offset` (a page of nothing new) is detected; it, and an endpoint
 * without `offset`, are then asked once for `limit` = `count`. When that still falls short, an
 * {@link IncompleteListError} is thrown: a capped page is never taken for the whole list.
 */
export async function listAll<T>(
  api: ApiClient,
  req: Omit<ApiRequest, 'method'>,
  paging: ListPaging<T>,
): Promise<T[]> {
  const key = paging.key ?? ((item: T) => JSON.stringify(item));
  const seen = new Map<string, T>();
  const get = async (extra: Record<string, number>) => {
    const res = await api.request({ ...req, method: 'GET', query: { ...req.query, ...extra } });
    const page = paging.items(res.body) ?? [];
    let added = 0;
    for (const item of page) {
      const k = key(item);
      if (!seen.has(k)) added++;
      seen.set(k, item);
    }
    return { size: page.length, added, total: paging.count(res.body) };
  };

  let last = await get({});
  const firstSize = last.size;
  if (paging.offset !== false) {
    // by offset while each page brings something new and the total is not reached
    while (last.added > 0 && (last.total === undefined || seen.size < last.total)) {
      // ask for the rest at once; a capping server answers less, and the loop goes on
      const rest: Record<string, number> =
        last.total === undefined ? {} : { limit: Math.min(last.total - seen.size, MAX_PAGE_SIZE) };
      last = await get({ offset: seen.size, ...rest });
    }
  }
  const total = last.total;
  if (total === undefined || seen.size >= total) return [...seen.values()];
  // offset ignored or absent: ask for the whole list in one page, as large as a page may be
  last = await get({ limit: Math.min(total, MAX_PAGE_SIZE) });
  if (seen.size >= (last.total ?? total)) return [...seen.values()];
  const why =
    paging.offset === false
      ? `the endpoint has no offset and its pages stop at ${Math.max(firstSize, last.size)}`
      : `it ignores offset and its pages stop at ${Math.max(firstSize, last.size)}`;
  throw new IncompleteListError(req.operation, seen.size, last.total ?? total, why);
}

/** `items` and `metadata.count` of a Kubernetes-style list (`WorkspaceList`, ...), keyed by name. */
export function kubeList<T>(api: ApiClient, req: Omit<ApiRequest, 'method'>): Promise<T[]> {
  return listAll<T>(api, req, {
    items: (b) => (b as { items?: T[] } | null)?.items,
    count: (b) => (b as { metadata?: { count?: number } } | null)?.metadata?.count,
    key: (item) => {
      const m = (item as { metadata?: { workspace?: string; name?: string } }).metadata;
      return m?.name === undefined ? JSON.stringify(item) : `${m.workspace ?? ''}/${m.name}`;
    },
  });
}

/** Encodes one path segment. */
export const seg = (s: string): string => encodeURIComponent(s);
