import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { PlatctlError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import type { PriceFile } from '../../model/prices.js';
import type { ControlScope } from '../leadership/elsewhere.js';
import type { SecretValue } from '../secrets/secret-file.js';
import { HISTORY_SIZE, runItem } from '../status/history.js';
import { streamEvents } from './control-events.js';
import { graphQuery, intParam, resourcePage, resourceQuery } from './control-queries.js';
import { apiStatus, type SourceView } from './control-views.js';
import type { ControllerControls } from './controls.js';
import { fleetQuery, fleetView, schedulesAt } from './fleet-view.js';
import { graphView } from './graph-view.js';
import { requestPower, resourceDetail } from './resource-route.js';
import type { HttpRoute } from './server.js';

/** What the control API needs. */
export interface ControlApiDeps {
  /** The bearer token, asked on every request (rotation); undefined disables the API (404). */
  readonly token?: string | SecretValue;
  readonly controls: ControllerControls;
  readonly source: SourceView;
  readonly logger: Logger;
  readonly now: () => number;
  /** `--prices`: GPUs per profile in the fleet view, and what schedules save. */
  readonly prices?: PriceFile;
}

const PREFIX = '/api/v1/';
/** The dashboard's own route under the prefix: answered by its module, not here. */
const NOT_OURS = new Set(['/api/v1/usage', '/api/v1/usage/daily']);
const MAX_BODY = 64 * 1024;

/**
 * The routes that change something, and what they change: the fleet's intent (only the leader,
 * or the holder of the `global` shard, writes it) or this replica's own work.
 */
const CHANGES: Readonly<Record<string, ControlScope>> = {
  'POST reconcile': 'replica',
  'POST suspend': 'fleet',
  'POST resume': 'fleet',
  'POST prunes/3': 'replica',
  'POST runs/3': 'fleet',
  'POST resources/3': 'replica',
};

function send(res: ServerResponse, status: number, body: unknown): true {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(`${JSON.stringify(body)}\n`);
  return true;
}

const digest = (s: string) => createHash('sha256').update(s).digest();

/** `Authorization: Bearer <token>`, compared in constant time. */
function authorized(req: IncomingMessage, token: string): boolean {
  const header = req.headers.authorization ?? '';
  const given = header.startsWith('Bearer ') ? header.slice(7) : '';
  return timingSafeEqual(digest(given), digest(token));
}

async function jsonBody(req: IncomingMessage): Promise<Record<string, unknown> | undefined> {
  let text = '';
  for await (const chunk of req) {
    text += String(chunk);
    if (text.length > MAX_BODY) return undefined;
  }
  if (text.trim() === '') return {};
  try {
    const v = JSON.parse(text) as unknown;
    return v && typeof v === 'object' && !Array.isArray(v)
      ? (v as Record<string, unknown>)
      : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The controller's control API (docs/control-api.md) as one route for the server's
 * `routes` list: token auth on every `/api/v1/` path but the dashboard's, JSON in and out,
 * resource keys URL-encoded in paths. Never answers with a secret.
 */
export function controlApiRoute(deps: ControlApiDeps): HttpRoute {
  const { controls } = deps;
  return async (req, res, url) => {
    const path = url.pathname;
    if (!path.startsWith(PREFIX) || NOT_OURS.has(path)) return false;
    if (deps.token === undefined) return send(res, 404, { error: 'control API disabled' });
    const token = typeof deps.token === 'string' ? deps.token : await deps.token();
    if (!authorized(req, token)) return send(res, 401, { error: 'unauthorized' });
    let parts: string[];
    try {
      parts = path.slice(PREFIX.length).split('/').map(decodeURIComponent);
    } catch {
      return send(res, 400, { error: 'malformed URL encoding in the path' });
    }
    const method = req.method ?? 'GET';
    const route = `${method} ${parts[0]}${parts.length > 1 ? `/${parts.length}` : ''}`;
    // a power request is the fleet's intent; the resource's other verbs this replica's work
    const scope = route === 'POST resources/3' && parts[2] === 'power' ? 'fleet' : CHANGES[route];
    if (scope) {
      // a standby acts on nothing: it would act beside the leader (or undo what it did)
      const other = await controls.elsewhere(scope);
      if (other) return send(res, 503, { error: other.message, leader: other.leader });
      try {
        return await change(route, parts, req, res);
      } catch (err) {
        // the lease was lost between the check and the write: nothing was changed
        if (!(err instanceof PlatctlError && err.code === 'locked')) throw err;
        return send(res, 503, { error: err.message, leader: 'unknown: ask another replica' });
      }
    }
    switch (route) {
      case 'GET status':
        return send(res, 200, apiStatus(controls.status, deps.source, deps.now()));
      case 'GET resources': {
        const query = resourceQuery(url.searchParams);
        if (typeof query === 'string') return send(res, 400, { error: query });
        return send(res, 200, resourcePage(controls.status.conditions, query));
      }
      case 'GET graph': {
        const query = graphQuery(url.searchParams);
        if (typeof query === 'string') return send(res, 400, { error: query });
        if (query.focus && !controls.status.conditions.some((c) => c.key === query.focus)) {
          return send(res, 404, { error: `unknown resource ${query.focus}` });
        }
        return send(res, 200, graphView(controls.status.conditions, query));
      }
      case 'GET fleet': {
        const query = fleetQuery(url.searchParams);
        if (typeof query === 'string') return send(res, 400, { error: query });
        const [applied, loaded] = await Promise.all([controls.applied(), controls.loaded()]);
        const schedules = schedulesAt(
          loaded.map((m) => m.manifest),
          deps.now(),
          deps.prices,
        );
        const { conditions } = controls.status;
        return send(res, 200, fleetView(applied, conditions, deps.prices, query, schedules));
      }
      case 'GET resources/2': {
        const detail = await resourceDetail(deps, parts[1] ?? '');
        if (!detail) return send(res, 404, { error: `unknown resource ${parts[1]}` });
        return send(res, 200, detail);
      }
      case 'GET runs/2': {
        const run = await controls.run(parts[1] ?? '');
        if (!run)
          return send(res, 404, { error: `no run ${parts[1]} among the last ${HISTORY_SIZE}` });
        return send(res, 200, run);
      }
      case 'GET runs': {
        const limit = intParam(url.searchParams, 'limit', 20, HISTORY_SIZE);
        if (typeof limit === 'string') return send(res, 400, { error: limit });
        return send(res, 200, { items: (await controls.runs(limit)).map(runItem) });
      }
      case 'GET diff': {
        const plan = await controls.plan(AbortSignal.timeout(120_000));
        if (!plan) return send(res, 409, { error: 'no revision has validated yet' });
        return send(res, 200, plan);
      }
      case 'GET events':
        return streamEvents(req, res, deps);
    }
    return send(res, 404, { error: `no such control API route: ${method} ${path}` });
  };

  /** The verbs that change something, once this replica may act on them. */
  async function change(
    route: string,
    parts: readonly string[],
    req: IncomingMessage,
    res: ServerResponse,
  ): Promise<true> {
    switch (route) {
      case 'POST reconcile': {
        const body = await jsonBody(req);
        if (!body) return send(res, 400, { error: 'the body must be a JSON object' });
        controls.reconcile(body.withSource === true);
        return send(res, 202, { accepted: true });
      }
      case 'POST suspend':
        return send(res, 200, { suspended: await controls.suspend() });
      case 'POST resume':
        return send(res, 200, { suspended: await controls.resume() });
      case 'POST prunes/3':
        if (parts[2] !== 'approve') break;
        if (!(await controls.approvePrune(parts[1] ?? ''))) {
          // sharded: another replica may hold it, for projects this one does not reconcile
          const other = await controls.pruneElsewhere(parts[1] ?? '');
          if (other) return send(res, 503, { error: other.message, leader: other.leader });
          return send(res, 404, { error: 'no held prune with that run id (unknown or expired)' });
        }
        return send(res, 200, { approved: true });
      case 'POST runs/3':
        if (parts[2] !== 'approve') break;
        if (!(await controls.approve(parts[1] ?? ''))) {
          return send(res, 404, {
            error: 'that run holds nothing to approve (unknown, expired, or already approved)',
          });
        }
        return send(res, 200, { approved: true });
      case 'POST resources/3':
        if (parts[2] === 'reconcile') {
          if (!controls.reconcileResource(parts[1] ?? '')) {
            return send(res, 404, { error: `unknown resource ${parts[1]}` });
          }
          return send(res, 202, { accepted: true });
        }
        if (parts[2] === 'power') {
          const body = await jsonBody(req);
          if (!body) return send(res, 400, { error: 'the body must be a JSON object' });
          return send(res, ...(await requestPower(deps, parts[1] ?? '', body)));
        }
        if (parts[2] !== 'reset-backoff') break;
        if (!controls.resetBackoff(parts[1] ?? '')) {
          return send(res, 404, { error: `unknown resource ${parts[1]}` });
        }
        return send(res, 200, { reset: true });
    }
    return send(res, 404, { error: `no such control API route: ${req.method} ${req.url}` });
  }
}
