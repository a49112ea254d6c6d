import type { ResourceCondition } from '../status/conditions.js';

/** The columns `GET /api/v1/resources?sort=` orders by: the columns the dashboard's list shows. */
const SORT_FIELDS = ['name', 'kind', 'condition', 'project', 'changed'] as const;
type SortField = (typeof SORT_FIELDS)[number];

/** An order asked of the list: a column, ascending unless `descending`. */
export interface ResourceSort {
  readonly field: SortField;
  readonly descending: boolean;
}

/**
 * `sort=` as the control API takes it: a column (`name`, `kind`, `condition`, `project`,
 * `changed`), `-` before it for descending; undefined when absent or empty (the engine's
 * order). A string is the 400's message, naming the bad value and the ones allowed. Pure.
 */
export function sortParam(raw: string | null): ResourceSort | undefined | string {
  if (raw === null || raw === '') return undefined;
  const descending = raw.startsWith('-');
  const field = descending ? raw.slice(1) : raw;
  if (!(SORT_FIELDS as readonly string[]).includes(field)) {
    return `sort must be one of ${SORT_FIELDS.join(', ')}, with - before it for descending (got ${JSON.stringify(raw.slice(0, 40))})`;
  }
  return { field: field as SortField, descending };
}

/** The text `sort` sorts on (the name as the list shows it: `workspace/name`). */
function column(c: ResourceCondition, field: SortField): string {
  switch (field) {
    case 'name':
      return c.workspace ? `${c.workspace}/${c.name}` : c.name;
    case 'kind':
      return c.kind;
    case 'condition':
      return c.condition;
    case 'project':
      return c.project ?? '';
    case 'changed':
      // ISO times in UTC order as text
      return c.lastTransitionTime;
    default: {
      const never: never = field;
      throw new TypeError(`unknown sort field ${String(never)}`);
    }
  }
}

// code-unit order, not localeCompare: the same order whatever the server's locale and ICU data
// (measured no faster or slower that matters: 30–75 ms against 45–67 ms for 100,000 names)
const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The positions `rows` of `all` in the order `sort` asks (pure; a new array): by project first
 * when `grouped` (the dashboard's list is grouped by project, the resources of no project first),
 * then by the column, then by key, so equal values keep one order page after page.
 * `descending` reverses the column (for `project`, the projects); the key tiebreak stays
 * ascending. Each resource's value is read once, not once per comparison.
 */
export function sortRows(
  rows: readonly number[],
  all: readonly ResourceCondition[],
  sort: ResourceSort,
  grouped: boolean,
): number[] {
  const sign = sort.descending ? -1 : 1;
  const byProject = grouped || sort.field === 'project';
  const projectSign = sort.field === 'project' ? sign : 1;
  const decorated = rows.map((i) => {
    const c = all[i]!;
    return { i, project: c.project ?? '', value: column(c, sort.field), key: c.key };
  });
  decorated.sort(
    (a, b) =>
      (byProject ? projectSign * cmp(a.project, b.project) : 0) ||
      sign * cmp(a.value, b.value) ||
      cmp(a.key, b.key),
  );
  return decorated.map((d) => d.i);
}
