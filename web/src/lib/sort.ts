/**
 * The resource list's order as the URL and the control API write it (`?sort=name`,
 * `?sort=-changed`: a column, `-` before it for descending). Pure.
 */

/** The columns the list can be ordered by, as the control API names them. */
const SORT_FIELDS = ['project', 'kind', 'name', 'condition', 'changed'] as const;
export type SortField = (typeof SORT_FIELDS)[number];

/** A column and its direction; undefined elsewhere means the engine's order. */
export interface ListSort {
  readonly field: SortField;
  readonly descending: boolean;
}

/** The order `?sort=` asks for; undefined when absent or not one the server knows. */
export function sortOf(value: string | null | undefined): ListSort | undefined {
  if (!value) return undefined;
  const descending = value.startsWith('-');
  const field = descending ? value.slice(1) : value;
  return (SORT_FIELDS as readonly string[]).includes(field)
    ? { field: field as SortField, descending }
    : undefined;
}

/** `sort` as a query value (`-changed`); undefined for the engine's order. */
export const sortParam = (sort: ListSort | undefined): string | undefined =>
  sort ? `${sort.descending ? '-' : ''}${sort.field}` : undefined;

/**
 * The order after a click on `field`'s header: ascending first, then descending, then back to
 * the engine's order.
 */
export function nextSort(current: ListSort | undefined, field: SortField): ListSort | undefined {
  if (current?.field !== field) return { field, descending: false };
  return current.descending ? undefined : { field, descending: true };
}
