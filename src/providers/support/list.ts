import type { ApiClient, ApiRequest } from '../types.js';

/** The largest page the platform serves (docs/api-assumptions.md, "Paging and ordering"). */
export const PAGE_LIMIT = 1000;

/**
 * Reads every page of a list (`limit`/`offset`, `count` = total matched). `items` picks the
 * array out of a page body. Stops on a short or empty page, or when `count` is reached.
 */
export async function listAll<T>(
  api: ApiClient,
  req: Omit<ApiRequest, 'method'>,
  items: (body: unknown) => readonly T[] | undefined,
  count: (body: unknown) => number | undefined,
): Promise<T[]> {
  const all: T[] = [];
  for (let offset = 0; ; ) {
    const res = await api.request({
      ...req,
      method: 'GET',
      query: { ...req.query, limit: PAGE_LIMIT, offset },
    });
    const page = items(res.body) ?? [];
    all.push(...page);
    offset += page.length;
    const total = count(res.body);
    if (page.length === 0 || (total !== undefined ? offset >= total : page.length < PAGE_LIMIT)) {
      return all;
    }
  }
}

/** `items` and `metadata.count` of a Kubernetes-style list (`WorkspaceList`, ...). */
export function kubeList<T>(api: ApiClient, req: Omit<ApiRequest, 'method'>): Promise<T[]> {
  return listAll<T>(
    api,
    req,
    (b) => (b as { items?: T[] } | null)?.items,
    (b) => (b as { metadata?: { count?: number } } | null)?.metadata?.count,
  );
}

/** Encodes one path segment. */
export const seg = (s: string): string => encodeURIComponent(s);
