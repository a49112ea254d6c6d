import { useCallback, useEffect, useRef, useState } from 'react';
import { api } from '../api/client.js';
import type { Condition, ProjectGroup, ResourceItem } from '../api/resources.js';
import { pagesOf } from '../lib/rows.js';

/** Resources asked of the server at once: a screen is about 16 rows. */
const PAGE = 200;

/** What the list is filtered and ordered by (kept in the URL by the view). */
export interface ListFilter {
  readonly condition?: Condition;
  readonly q?: string;
  /** The control API's `sort` (`name`, `-changed`, ...); undefined: the engine's order. */
  readonly sort?: string;
}

/** The list as far as it is read: its total and projects, and the pages read so far. */
export interface ResourcePages {
  /** Undefined until the first answer for this filter came. */
  readonly total?: number;
  readonly groups: readonly ProjectGroup[];
  /** The resource at `offset` of the list, undefined while its page is being read. */
  itemAt(offset: number): ResourceItem | undefined;
  /** Reads the pages holding offsets from..to (the rows in view) that are not read yet. */
  want(from: number, to: number): void;
  readonly error?: string;
}

interface Answer {
  /** The filter and generation the answer is for. */
  readonly id: string;
  readonly filterId: string;
  readonly total: number;
  readonly groups: readonly ProjectGroup[];
  readonly pages: ReadonlyMap<number, readonly ResourceItem[]>;
  /** The previous generation's pages of the same filter, shown until their page is read again. */
  readonly stale: ReadonlyMap<number, readonly ResourceItem[]>;
}

const failed = (err: unknown) => (err instanceof Error ? err.message : String(err));
const aborted = (err: unknown) => err instanceof DOMException && err.name === 'AbortError';

/**
 * The resource list, paged, filtered and sorted by the control API (`view=tree`): the first page
 * and the projects' counts in one request, then each page as the list scrolls to it. A new
 * `generation` (the status changed) reads the list again, the rows on screen kept until their
 * page is re-read. A new filter keeps the rows of the old one until its answer comes, and aborts
 * the requests of the old one (a key typed per keystroke asks once per key).
 */
export function useResourcePages(filter: ListFilter, generation: number): ResourcePages {
  const filterId = JSON.stringify([filter.condition ?? '', filter.q?.trim() ?? '', filter.sort]);
  const id = `${filterId}#${generation}`;
  const [answer, setAnswer] = useState<Answer>();
  const [error, setError] = useState<string>();
  const current = useRef(id);
  current.current = id;
  const asked = useRef(new Set<string>());
  /** Aborts this id's requests, once another id is asked. */
  const abort = useRef(new AbortController());
  const params = useCallback(
    (offset: number) => ({
      view: 'tree',
      offset,
      limit: PAGE,
      condition: filter.condition,
      q: filter.q?.trim(),
      sort: filter.sort,
    }),
    [filter.condition, filter.q, filter.sort],
  );

  useEffect(() => {
    asked.current.clear();
    const controller = new AbortController();
    abort.current = controller;
    api.resources({ ...params(0), groups: 1 }, controller.signal).then(
      (page) => {
        if (current.current !== id) return; // a newer filter was asked meanwhile
        setError(undefined);
        setAnswer((prev) => ({
          id,
          filterId,
          total: page.total,
          groups: page.groups ?? [],
          pages: new Map([[0, page.items]]),
          stale: prev?.filterId === filterId ? prev.pages : new Map(),
        }));
      },
      (err: unknown) => {
        if (!aborted(err)) setError(failed(err));
      },
    );
    return () => controller.abort();
  }, [id, filterId, params]);

  const want = useCallback(
    (from: number, to: number) => {
      if (!answer || answer.id !== id) return;
      for (const p of pagesOf(from, Math.min(to, answer.total - 1), PAGE)) {
        const mark = `${id}:${p}`;
        if (answer.pages.has(p) || asked.current.has(mark)) continue;
        asked.current.add(mark);
        api.resources(params(p * PAGE), abort.current.signal).then(
          (page) =>
            setAnswer((prev) =>
              prev && prev.id === id
                ? { ...prev, pages: new Map(prev.pages).set(p, page.items) }
                : prev,
            ),
          (err: unknown) => {
            asked.current.delete(mark);
            if (!aborted(err)) setError(failed(err));
          },
        );
      }
    },
    [answer, id, params],
  );

  const itemAt = useCallback(
    (offset: number) => {
      const p = Math.floor(offset / PAGE);
      const page = answer?.pages.get(p) ?? answer?.stale.get(p);
      return page?.[offset - p * PAGE];
    },
    [answer],
  );

  return {
    ...(answer ? { total: answer.total } : {}),
    groups: answer?.groups ?? [],
    itemAt,
    want,
    ...(error ? { error } : {}),
  };
}
