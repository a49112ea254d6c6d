import { describe, expect, it } from 'vitest';
import type { ApiClient, ApiRequest } from '../../src/model/api.js';
import { IncompleteListError, listAll } from '../../src/providers/support/list.js';

/**
 * listAll against a list that changes while it is paged (a benchmark's apply created users while
 * another request paged through the users list): items that sort before the current offset shift
 * the pages, which must not be taken for a server that ignores offset.
 */
interface Page {
  names: string[];
  count: number;
}

/**
 * A fake users list sorted by name, with a default page of 25, `limit` up to 1000 and `offset`
 * honoured. `between(n)` runs before the n-th request (1-based), to change the list.
 */
function fakeList(initial: string[], between: (n: number, names: string[]) => void = () => {}) {
  const names = [...initial];
  const queries: Record<string, unknown>[] = [];
  const api = {
    async request(req: ApiRequest) {
      const query = (req.query ?? {}) as Record<string, number | undefined>;
      queries.push({ ...query });
      between(queries.length, names);
      names.sort();
      const offset = query.offset ?? 0;
      const limit = query.limit ?? 25;
      if (limit > 1000) return { status: 400, body: null, headers: {} };
      const body: Page = { names: names.slice(offset, offset + limit), count: names.length };
      return { status: 200, body, headers: {} };
    },
  } as unknown as ApiClient;
  return { api, queries, names };
}

const read = (api: ApiClient) =>
  listAll<string>(
    api,
    { path: '/list', route: '/list', auth: 'identity', operation: 'listing users' },
    { items: (b) => (b as Page).names, count: (b) => (b as Page).count, key: (n) => n },
  );
const numbered = (prefix: string, n: number) =>
  Array.from({ length: n }, (_, i) => `${prefix}${String(i).padStart(5, '0')}`);

describe('listAll on a list that changes while it is paged', () => {
  it('re-reads a list that grew before the offset instead of calling it incomplete', async () => {
    const { api, names } = fakeList(numbered('u', 1100), (n, list) => {
      if (n === 2) list.push('a-new-1', 'a-new-2'); // sort before every page
      if (n === 3) list.push('u01010-new'); // before the offset, past the first 1000
    });
    const items = await read(api);
    expect(items.sort()).toEqual([...names].sort());
    expect(items).toHaveLength(1103);
  });

  it('re-reads a list that shrank before the offset instead of missing items', async () => {
    const { api, names } = fakeList(numbered('u', 1100), (n, list) => {
      if (n === 2) list.splice(0, 3); // three of the first page deleted
    });
    const items = await read(api);
    expect(items.sort()).toEqual([...names].sort());
    expect(items).toHaveLength(1097);
  });

  it('gives up with an error, never a short list, when the list keeps changing', async () => {
    const { api, queries } = fakeList(numbered('u', 1100), (n, list) => {
      list.push(`a-${n}`);
    });
    const err = await read(api).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(IncompleteListError);
    expect(String(err)).toContain('changed while it was read');
    expect(queries.length).toBeLessThan(20);
  });

  it('still reads a list that does not change in 1 + ceil(rest / 1000) requests', async () => {
    const { api, queries } = fakeList(numbered('u', 1100));
    await expect(read(api)).resolves.toHaveLength(1100);
    expect(queries).toEqual([{}, { offset: 25, limit: 1000 }, { offset: 1025, limit: 75 }]);
  });
});
