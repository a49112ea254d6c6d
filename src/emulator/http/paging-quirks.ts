import type { OperationEntry } from '../openapi/load-document.js';

/**
 * How a stricter real platform might page, for testing clients against it (the spec gives no
 * maximum page size). Off by default: the emulator then honours `limit` up to the document's
 * maximum and `offset` wherever the document defines it.
 */
export interface PagingQuirks {
  /** Every list answers at most this many items, whatever `limit` asks (no error). */
  readonly pageCap?: number;
  /** `offset` is ignored everywhere, as a server treats a parameter it does not know. */
  readonly ignoreOffset?: boolean;
}

/**
 * Applies the quirks to the validated, defaulted query of a list operation (one whose document
 * defines `limit`), in place. Operations without paging are left alone. Pure apart from `query`.
 */
export function applyPagingQuirks(
  quirks: PagingQuirks | undefined,
  entry: OperationEntry,
  query: Record<string, unknown>,
): void {
  if (!quirks || !entry.parameters.some((p) => p.in === 'query' && p.name === 'limit')) return;
  const cap = quirks.pageCap;
  if (cap !== undefined && typeof query.limit === 'number' && query.limit > cap) query.limit = cap;
  if (quirks.ignoreOffset && 'offset' in query) query.offset = 0;
}
