import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PlatctlError } from '../../../core/errors.js';
import type { Logger } from '../../../core/logger.js';
import type { ApiClient } from '../../../model/api.js';
import type { PriceFile } from '../../../model/prices.js';
import {
  createUsageReader,
  type UsageItem,
  type UsageQuery,
} from '../../../providers/usage-reader.js';
import type { HttpRoute } from '../server.js';
import { assetRoutes, defaultAssetsDir } from './assets.js';
import { dayTotal, dayWindows, monthStart, priced } from './usage-cost.js';

/** What the dashboard's routes need from the controller. */
export interface DashboardDeps {
  /** The controller's platform client (its rate limiter is shared with reconciles). */
  readonly api: ApiClient;
  readonly logger: Logger;
  /** The control API's token, asked per request (rotation); undefined: `/api/v1/usage` is 404. */
  readonly controlToken?: string | (() => Promise<string>);
  /** The built page. @default dist/dashboard of the package */
  readonly assetsDir?: string;
  /** How long a usage answer is reused. @default 30000 */
  readonly usageCacheMs?: number;
  readonly now?: () => number;
  /** `--prices`: usage lines carry their cost, and the answer the currency. */
  readonly prices?: PriceFile;
}

function send(res: ServerResponse, status: number, body: unknown): true {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(`${JSON.stringify(body)}\n`);
  return true;
}

const digest = (s: string) => createHash('sha256').update(s).digest();

/** `Authorization: Bearer <token>` against the token, in constant time. */
function bearerMatches(req: IncomingMessage, token: string): boolean {
  const header = req.headers.authorization ?? '';
  const given = header.startsWith('Bearer ') ? header.slice(7) : '';
  return timingSafeEqual(digest(given), digest(token));
}

const PROJECT = /^[A-Za-z0-9][A-Za-z0-9._-]{0,62}$/;

/** The query of a usage request, or the message of a 400. */
function usageQuery(params: URLSearchParams): UsageQuery | string {
  const q: { project?: string; from?: string; to?: string } = {};
  const project = params.get('project');
  if (project) {
    if (!PROJECT.test(project)) return `project ${JSON.stringify(project)} is not a project name`;
    q.project = project;
  }
  for (const field of ['from', 'to'] as const) {
    const value = params.get(field);
    if (!value) continue;
    const ms = Date.parse(value);
    if (Number.isNaN(ms)) return `${field} is not an ISO 8601 time: ${JSON.stringify(value)}`;
    q[field] = new Date(ms).toISOString();
  }
  if (q.from && q.to && q.from > q.to) return 'from is after to';
  return q;
}

/**
 * The dashboard's routes, mounted on the controller's server: `GET /api/v1/usage` and
 * `/api/v1/usage/daily` (control token required; compute usage per instance from the billing
 * endpoints, priced with `--prices`, cached briefly) and the
 * page itself (`/`, `/assets/*`, no auth: the files hold no data).
 */
export function dashboardRoutes(deps: DashboardDeps): HttpRoute[] {
  const read = createUsageReader(deps.api);
  const now = deps.now ?? Date.now;
  const ttl = deps.usageCacheMs ?? 30_000;
  const cache = new Map<string, { at: number; items: Promise<UsageItem[]> }>();
  /** Usage lines of a query, read once per cache lifetime. */
  const cached = (query: UsageQuery): Promise<UsageItem[]> => {
    const key = JSON.stringify(query);
    let hit = cache.get(key);
    if (!hit || now() - hit.at > ttl) {
      hit = { at: now(), items: read(query) };
      if (cache.size >= 128) cache.delete(cache.keys().next().value!);
      cache.set(key, hit);
      hit.items.catch(() => cache.delete(key));
    }
    return hit.items;
  };
  const currency = deps.prices ? { currency: deps.prices.currency } : {};
  const usage: HttpRoute = async (req, res, url) => {
    const daily = url.pathname === '/api/v1/usage/daily';
    if (url.pathname !== '/api/v1/usage' && !daily) return false;
    if (deps.controlToken === undefined) return send(res, 404, { error: 'control API disabled' });
    const token =
      typeof deps.controlToken === 'string' ? deps.controlToken : await deps.controlToken();
    if (!bearerMatches(req, token)) return send(res, 401, { error: 'unauthorized' });
    if (req.method !== 'GET') return send(res, 405, { error: 'use GET' });
    const query = usageQuery(url.searchParams);
    if (typeof query === 'string') return send(res, 400, { error: query });
    try {
      if (daily) {
        // the month so far unless a range is given; one billing read per day, cached
        const from = query.from ?? monthStart(now());
        const to = query.to ?? new Date(now()).toISOString();
        const days = await Promise.all(
          dayWindows(from, to).map(async (w) =>
            dayTotal(w.from.slice(0, 10), priced(await cached({ ...query, ...w }), deps.prices)),
          ),
        );
        return send(res, 200, { days, ...currency });
      }
      return send(res, 200, { items: priced(await cached(query), deps.prices), ...currency });
    } catch (err) {
      if (!(err instanceof PlatctlError)) throw err;
      deps.logger.warn({ event: 'usage-failed', code: err.code }, err.message);
      return send(res, 502, { error: `the platform's billing could not be read: ${err.message}` });
    }
  };
  return [usage, assetRoutes(deps.assetsDir ?? defaultAssetsDir())];
}
