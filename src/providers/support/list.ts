import { PlatctlError } from '../../core/errors.js';
import type { ApiClient, ApiRequest } from '../../model/api.js';

/**
 * The largest `limit` a request asks for. The spec gives no maximum; the emulator, like the
 * platforms of this kind we know of, refuses a `limit` over 1000 with a 400 (docs/api-assumptions.md,
 * "Paging and ordering"). Asking for "the rest of count" in one page above it would fail every list
 * longer than the first page plus this.
 */
export const MAX_PAGE_SIZE = 1000;

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
  /** How many items the platform said there are. */
  readonly total: number;

  constructor(operation: string, got: number, total: number, why: string) {
    super('api', `${operation}: the platform returned ${got} of ${total} items (${why})`);
    this.name = 'IncompleteListError';
    this.total = total;
  }
}

/**
 * How many times a list is read from its start when it changed while it was paged (a create or
 * delete elsewhere shifts the pages under the offset) before the read gives up with an error.
 */
const MAX_READS = 3;

/**
 * Reads every item of a list (I/O), sending only the parameters the endpoint documents and no
 * page size of its own: the first request carries none, so the platform's default page decides;
 * later ones ask for `offset` = the distinct items seen so far and `limit` = the rest of `count`,
 * at most {@link MAX_PAGE_SIZE} (so a list of N costs 1 + ceil((N - first page) / 1000) requests).
 * Items are de-duplicated by key, so a server that ignores `offset` (a page of nothing new that
 * starts like the first page) is detected; it, and an endpoint without `offset`, are then asked
 * once for `limit` = `count`. When that still falls short, an {@link IncompleteListError} is thrown:
 * a capped page is never taken for the whole list. A list that changed while it was read (a new
 * `count`, or a page of nothing new that is not the first page again) is read again from its
 * start, up to {@link MAX_READS} reads in all, and is an {@link IncompleteListError} after that.
 */
export async function listAll<T>(
  api: ApiClient,
  req: Omit<ApiRequest, 'method'>,
  paging: ListPaging<T>,
): Promise<T[]> {
  for (let reads = 1; ; reads++) {
    const read = await readOnce(api, req, paging);
    if (read.items) return read.items;
    if (read.why !== undefined) {
      throw new IncompleteListError(req.operation, read.got, read.total, read.why);
    }
    if (reads === MAX_READS) {
      const why = `the list changed while it was read, ${MAX_READS} times in a row`;
      throw new IncompleteListError(req.operation, read.got, read.total, why);
    }
  }
}

/** One read of a list from its start: its items, why it is incomplete, or neither (it changed). */
type Read<T> =
  | { readonly items: T[]; readonly why?: undefined }
  | {
      readonly items?: undefined;
      readonly why?: string;
      readonly got: number;
      readonly total: number;
    };

async function readOnce<T>(
  api: ApiClient,
  req: Omit<ApiRequest, 'method'>,
  paging: ListPaging<T>,
): Promise<Read<T>> {
  const key = paging.key ?? ((item: T) => JSON.stringify(item));
  const seen = new Map<string, T>();
  const get = async (extra: Record<string, number>) => {
    // a page goes before single requests waiting: the rest of the list, and what needs it, wait on it
    const res = await api.request({
      ...req,
      method: 'GET',
      priority: 1,
      query: { ...req.query, ...extra },
    });
    const page = paging.items(res.body) ?? [];
    let added = 0;
    for (const item of page) {
      const k = key(item);
      if (!seen.has(k)) added++;
      seen.set(k, item);
    }
    const head = page.length > 0 ? key(page[0] as T) : undefined;
    return { size: page.length, added, head, total: paging.count(res.body) };
  };

  let last = await get({});
  const first = last;
  const changed = () => last.total !== first.total;
  if (paging.offset !== false) {
    // by offset while each page brings something new and the total is not reached
    while (last.added > 0 && (last.total === undefined || seen.size < last.total)) {
      // ask for the rest at once; a capping server answers less, and the loop goes on
      const rest: Record<string, number> =
        last.total === undefined ? {} : { limit: Math.min(last.total - seen.size, MAX_PAGE_SIZE) };
      last = await get({ offset: seen.size, ...rest });
      if (changed()) return { got: seen.size, total: last.total ?? seen.size };
    }
    // nothing new, yet not the first page again: items shifted under the offset
    if (last !== first && last.added === 0 && last.size > 0 && last.head !== first.head) {
      return { got: seen.size, total: last.total ?? seen.size };
    }
  }
  const total = last.total;
  if (total === undefined || seen.size >= total) return { items: [...seen.values()] };
  // offset ignored or absent: ask for the whole list in one page, as large as a page may be
  last = await get({ limit: Math.min(total, MAX_PAGE_SIZE) });
  if (changed()) return { got: seen.size, total: last.total ?? total };
  if (seen.size >= total) return { items: [...seen.values()] };
  const why =
    paging.offset === false
      ? `the endpoint has no offset and its pages stop at ${Math.max(first.size, last.size)}`
      : `it ignores offset and its pages stop at ${Math.max(first.size, last.size)}`;
  return { why, got: seen.size, total };
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
