import { ApiError, type EmuContext, type EmuRequest, type EmuResponse } from '../http/types.js';
import { checkEnvelope, type EnvelopeBody } from '../shared/envelope.js';
import { type ListQuery, listQuery } from '../shared/paging.js';

/** Fields every stored PaaS record carries, so lists can be paged and ordered the same way. */
export interface Stamped {
  readonly name: string;
  /** Creation time in integer epoch microseconds (exact in a double until the year 2255). */
  readonly createdAtUs: number;
}

/** The free-text metadata a PaaS object keeps as sent (absent fields stay absent). */
export interface Described {
  readonly displayName?: string;
  readonly description?: string;
  readonly labels?: Readonly<Record<string, string>>;
}

/** `displayName`, `description` and `labels` of `metadata`, only those present. Pure. */
export function described(metadata: Described): Described {
  return {
    ...(metadata.displayName !== undefined && { displayName: metadata.displayName }),
    ...(metadata.description !== undefined && { description: metadata.description }),
    ...(metadata.labels !== undefined && { labels: metadata.labels }),
  };
}

/** `{paas_group}/v1` for the configured group. */
export function paasApiVersion(ctx: EmuContext): string {
  return `${ctx.config.paasGroup}/v1`;
}

/**
 * The creation time for a new record of `collection`: the emulator clock's now, bumped by one
 * microsecond past the newest time this collection has handed out so that creation order is total
 * even when several records are created within the same millisecond (the list's default order
 * relies on it). The newest time is kept in `meta` (one read and one write, whatever the size of
 * the collection); a store written before it was kept is scanned once.
 */
export function nextCreatedAtUs(ctx: EmuContext, collection: string): number {
  const markKey = `newest-created:${collection}`;
  const newest =
    ctx.store.get<{ readonly us: number }>('meta', markKey)?.us ??
    ctx.store
      .list<Stamped>(collection)
      .reduce((max, r) => Math.max(max, r.createdAtUs), Number.NEGATIVE_INFINITY);
  const now = Math.floor(ctx.clock.now()) * 1000;
  const next = now > newest ? now : newest + 1;
  ctx.store.put('meta', markKey, { us: next });
  return next;
}

/** Creation order: `createdAtUs`, then name. The order every PaaS list pages in. */
function byCreation(a: Stamped, b: Stamped): number {
  return a.createdAtUs - b.createdAtUs || a.name.localeCompare(b.name);
}

/**
 * The records of `collection` under key `prefix`, oldest first, from the store's kept order (no
 * sort per call). Read-only values, as every store read.
 */
export function inCreationOrder<T extends Stamped>(
  ctx: EmuContext,
  collection: string,
  prefix: string,
): readonly T[] {
  return ctx.store.sorted<T>(collection, prefix, byCreation);
}

/** ISO 8601 UTC with microseconds (`2026-01-01T00:00:00.123456Z`) for a stored creation time. */
export function createdAtIso(record: Stamped): string {
  const ms = Math.floor(record.createdAtUs / 1000);
  const micros = String(record.createdAtUs - ms * 1000).padStart(3, '0');
  return `${new Date(ms).toISOString().slice(0, -1)}${micros}Z`;
}

/**
 * Orders `records` by creation time (then name, for a stable order) and cuts one page with
 * {@link pageOfOrdered}. Pure; `count` is the total before paging.
 */
export function pageOf<T extends Stamped>(
  records: readonly T[],
  query: Omit<ListQuery, 'orderBy'>,
): { count: number; items: T[] } {
  return pageOfOrdered([...records].sort(byCreation), query);
}

/**
 * One page of `oldestFirst` (records already in {@link byCreation} order) as `query` asks: ASC
 * pages from the oldest, DESC from the newest. Costs the page, not the list. Pure.
 */
function pageOfOrdered<T>(
  oldestFirst: readonly T[],
  query: Omit<ListQuery, 'orderBy'>,
): { count: number; items: T[] } {
  const count = oldestFirst.length;
  const { offset, limit } = query;
  if (query.order === 'ASC') return { count, items: oldestFirst.slice(offset, offset + limit) };
  const items: T[] = [];
  for (let i = count - 1 - offset; i >= 0 && items.length < limit; i--) items.push(oldestFirst[i]!);
  return { count, items };
}

/**
 * The 200 response of every PaaS list: `{apiVersion, kind, metadata {count, limit[, offset]},
 * items}` over one page of `records` (given oldest first, as {@link inCreationOrder} returns them;
 * paged in the order the request asks), each item rendered by `render`. `count` is the total. The spec shows `offset` only for services' lists.
 */
export function listResponse<T extends Stamped>(
  ctx: EmuContext,
  req: EmuRequest,
  kind: string,
  records: readonly T[],
  render: (record: T) => unknown,
  options: { readonly offsetInMetadata?: boolean } = {},
): EmuResponse {
  const query = listQuery(req);
  const { count, items } = pageOfOrdered(records, query);
  const metadata = options.offsetInMetadata
    ? { count, limit: query.limit, offset: query.offset }
    : { count, limit: query.limit };
  return {
    status: 200,
    body: { apiVersion: paasApiVersion(ctx), kind, metadata, items: items.map(render) },
  };
}

/**
 * The envelope rule of every PaaS body (see {@link checkEnvelope}): `apiVersion` is
 * `{paas_group}/v1`, `kind` is `kind`, and `metadata.project` (and `metadata.workspace` for an
 * instance) are sent and equal the path's. Throws a 400 naming the field.
 */
export function checkPaasEnvelope(
  ctx: EmuContext,
  body: EnvelopeBody,
  kind: string,
  scope: Readonly<Record<string, string>>,
): void {
  checkEnvelope(body, { apiVersion: paasApiVersion(ctx), kind, scope });
}

/** A 404 ApiError for a missing PaaS object. */
export function notFound(what: string): ApiError {
  return new ApiError(404, 'not_found', `${what} not found`);
}

/** The body as an object (the OpenAPI layer has checked its shape; this only narrows the type). */
export function bodyObject<T>(req: EmuRequest): T {
  return (req.body ?? {}) as T;
}
