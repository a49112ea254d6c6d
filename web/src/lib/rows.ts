import type { ProjectGroup } from '../api/resources.js';

/** The group of resources without a project (users). */
export const NO_PROJECT = '(organization)';

/** A group's name in the list. */
export const groupName = (g: ProjectGroup): string => g.project ?? NO_PROJECT;

/** A line of the virtualized list: a project's header, or the resource at `offset` of the list. */
type Row =
  | { readonly type: 'project'; readonly group: ProjectGroup; readonly collapsed: boolean }
  | { readonly type: 'resource'; readonly offset: number };

/** Where each line of the list is, without holding a line per resource. */
export interface RowLayout {
  /** Lines in all: a header per project and the resources of the open ones. */
  readonly count: number;
  /** The line at `index` (0 ≤ index < count). */
  rowAt(index: number): Row;
}

/**
 * The lines of a list the server pages (pure): each project's header, then, unless collapsed,
 * its resources, which are `offset`s into the server's list (the projects' resources follow each
 * other there in the same order). Linear in projects; a line is found by binary search, so
 * 100,000 resources cost no array of 100,000 rows.
 */
export function layoutRows(
  groups: readonly ProjectGroup[],
  collapsed: ReadonlySet<string>,
): RowLayout {
  const rowStart: number[] = [];
  const offsetStart: number[] = [];
  let rows = 0;
  let offset = 0;
  for (const g of groups) {
    rowStart.push(rows);
    offsetStart.push(offset);
    rows += 1 + (collapsed.has(groupName(g)) ? 0 : g.total);
    offset += g.total;
  }
  return {
    count: rows,
    rowAt(index) {
      let lo = 0;
      let hi = groups.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (rowStart[mid]! <= index) lo = mid;
        else hi = mid - 1;
      }
      const group = groups[lo]!;
      const inside = index - rowStart[lo]!;
      if (inside === 0) {
        return { type: 'project', group, collapsed: collapsed.has(groupName(group)) };
      }
      return { type: 'resource', offset: offsetStart[lo]! + inside - 1 };
    },
  };
}

/** The pages of `size` that hold `offsets` from..to (both included), each once. Pure. */
export function pagesOf(from: number, to: number, size: number): number[] {
  const pages: number[] = [];
  for (let p = Math.floor(from / size); p <= Math.floor(to / size); p++) pages.push(p);
  return pages;
}
