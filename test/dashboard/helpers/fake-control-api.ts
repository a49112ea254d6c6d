import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  graphQuery,
  resourcePage,
  resourceQuery,
} from '../../../src/controller/http/control-queries.js';
import { assetRoutes } from '../../../src/controller/http/dashboard/assets.js';
import { graphView } from '../../../src/controller/http/graph-view.js';
import type { ResourceCondition } from '../../../src/controller/status/conditions.js';
import type { Condition, ResourceDetail, ResourceItem } from '../../../web/src/api/resources.js';
import type { RunDetail, RunItem } from '../../../web/src/api/runs.js';
import type { Status } from '../../../web/src/api/status.js';
import type { UsageDay, UsageItem } from '../../../web/src/api/usage.js';

/**
 * An in-memory stand-in for the controller's control API (the contract's shapes), serving the
 * real built page: for checking the page's components in a browser without a platform. The
 * end-to-end test uses the real controller instead.
 */
export interface FakeControlApi {
  readonly url: string;
  readonly token: string;
  status: Status;
  resources: ResourceItem[];
  runs: RunItem[];
  details: Map<string, ResourceDetail>;
  /** `GET /api/v1/runs/{runId}` answers. */
  runDetails: Map<string, RunDetail>;
  usage: UsageItem[];
  /** The usage answer's currency (the controller's `--prices`). */
  currency?: string;
  days: UsageDay[];
  /** The bodies of `POST /api/v1/resources/{key}/power`, with their key. */
  readonly powerAsked: { key: string; action: string }[];
  /** Every request as `METHOD path?query` with whether it carried the right token. */
  readonly requests: { line: string; authorized: boolean }[];
  /** Sends a `status` event to open streams (after changing `status`). */
  pushStatus(): void;
  close(): Promise<void>;
}

/** The first instance's PowerSchedule, in a period that stops 3½ hours from `now`. */
function scheduleFor(now: number) {
  const at = new Date(now + 3.5 * 3_600_000).toISOString();
  return {
    schedule: 'PowerSchedule/office-hours',
    timeZone: 'UTC',
    state: 'on' as const,
    why: 'period' as const,
    next: [{ at, local: `${at.slice(0, 16)}+00:00`, state: 'off' as const }],
    offHoursPerMonth: 400,
  };
}

/**
 * The fleet of the fake's compute instances: every seventh declared off, 8 GPUs each, the first
 * on a schedule (the
 * controller reads git's manifests; the fake has only the resource list).
 */
function fleetOf(resources: readonly ResourceItem[], q: URLSearchParams) {
  const all = resources
    .filter((r) => r.kind === 'ComputeInstance')
    .map((r, i) => ({
      key: r.key,
      project: r.project ?? '',
      workspace: r.workspace ?? '',
      name: r.name,
      profile: 'bmaas-h100',
      power: i % 7 === 3 ? ('off' as const) : ('on' as const),
      gpus: 8,
      condition: r.condition,
      reason: r.reason,
      ...(i === 0 ? { schedule: scheduleFor(Date.now()) } : {}),
    }));
  const power = q.get('power');
  const matched = all.filter((i) => !power || i.power === power);
  const offset = Number(q.get('offset') ?? 0);
  const on = all.filter((i) => i.power === 'on').length;
  return {
    total: matched.length,
    on,
    off: all.length - on,
    gpusOn: on * 8,
    items: matched.slice(offset, offset + Number(q.get('limit') ?? 100)),
  };
}

export function counts(items: readonly ResourceItem[]): Status['counts'] {
  const c: Record<Condition, number> = {
    Ready: 0,
    Progressing: 0,
    Degraded: 0,
    Drifted: 0,
    Suspended: 0,
    Orphaned: 0,
  };
  for (const i of items) c[i.condition]++;
  return { ...c, total: items.length };
}

/** A leader's status of a directory source with `items`' counts; `extra` overrides fields. */
export function statusOf(items: readonly ResourceItem[], extra: Partial<Status> = {}): Status {
  return {
    source: { dir: '/srv/platform' },
    role: 'leader',
    suspended: false,
    dryRun: false,
    selfHeal: true,
    revisions: {},
    sourceReady: true,
    rejected: [],
    counts: counts(items),
    ...extra,
  };
}

export async function startFakeControlApi(
  bundle: string,
  init: { status: Status; resources: ResourceItem[]; runs?: RunItem[] },
): Promise<FakeControlApi> {
  const token = 'fake-control-token-7d1e';
  const streams = new Set<ServerResponse>();
  const assets = assetRoutes(bundle);
  const json = (res: ServerResponse, status: number, body: unknown) => {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  };
  const server = createServer(async (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    if (await assets(req, res, url)) return;
    const authorized = req.headers.authorization === `Bearer ${token}`;
    fake.requests.push({ line: `${req.method} ${url.pathname}${url.search}`, authorized });
    if (!authorized) return json(res, 401, { error: 'unauthorized' });
    const p = url.pathname;
    if (p === '/api/v1/status') return json(res, 200, fake.status);
    // the controller's own filters, pages and graph (pure functions) on the fake's resources
    const conditions = fake.resources as readonly ResourceItem[] as readonly ResourceCondition[];
    if (p === '/api/v1/resources') {
      const query = resourceQuery(url.searchParams);
      if (typeof query === 'string') return json(res, 400, { error: query });
      return json(res, 200, resourcePage(conditions, query));
    }
    if (p === '/api/v1/graph') {
      const query = graphQuery(url.searchParams);
      if (typeof query === 'string') return json(res, 400, { error: query });
      return json(res, 200, graphView(conditions, query));
    }
    const verb = /^\/api\/v1\/resources\/([^/]+)\/(reconcile|reset-backoff|power)$/.exec(p);
    if (req.method === 'POST' && verb) {
      if (!fake.resources.some((r) => r.key === decodeURIComponent(verb[1]!))) {
        return json(res, 404, { error: 'unknown resource' });
      }
      if (verb[2] === 'power') {
        let body = '';
        for await (const chunk of req) body += String(chunk);
        fake.powerAsked.push({ key: decodeURIComponent(verb[1]!), ...JSON.parse(body) });
      }
      return verb[2] === 'reset-backoff'
        ? json(res, 200, { reset: true })
        : json(res, 202, { accepted: true });
    }
    if (p.startsWith('/api/v1/resources/')) {
      const d = fake.details.get(decodeURIComponent(p.slice('/api/v1/resources/'.length)));
      return d ? json(res, 200, d) : json(res, 404, { error: 'no such resource' });
    }
    if (p === '/api/v1/runs') return json(res, 200, { items: fake.runs });
    if (req.method === 'GET' && p.startsWith('/api/v1/runs/')) {
      const run = fake.runDetails.get(decodeURIComponent(p.slice('/api/v1/runs/'.length)));
      return run ? json(res, 200, run) : json(res, 404, { error: 'no such run' });
    }
    if (p === '/api/v1/usage') {
      return json(res, 200, {
        items: fake.usage,
        ...(fake.currency ? { currency: fake.currency } : {}),
      });
    }
    if (p === '/api/v1/usage/daily') return json(res, 200, { days: fake.days });
    if (p === '/api/v1/fleet') return json(res, 200, fleetOf(fake.resources, url.searchParams));
    if (p === '/api/v1/events') {
      res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store' });
      res.write(': ping\n\n');
      streams.add(res);
      req.on('close', () => streams.delete(res));
      return;
    }
    if (req.method === 'POST' && p === '/api/v1/reconcile')
      return json(res, 202, { accepted: true });
    if (req.method === 'POST' && p === '/api/v1/suspend') {
      fake.status = { ...fake.status, suspended: true };
      return json(res, 200, { suspended: true });
    }
    if (req.method === 'POST' && p === '/api/v1/resume') {
      fake.status = { ...fake.status, suspended: false };
      return json(res, 200, { suspended: false });
    }
    const approve = /^\/api\/v1\/prunes\/([^/]+)\/approve$/.exec(p);
    if (req.method === 'POST' && approve) {
      if (fake.status.blockedPrune?.runId !== decodeURIComponent(approve[1]!)) {
        return json(res, 404, { error: 'unknown or expired' });
      }
      const { blockedPrune: _gone, ...rest } = fake.status;
      fake.status = rest;
      return json(res, 200, { approved: true });
    }
    return json(res, 404, { error: 'not found' });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const fake: FakeControlApi = {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    token,
    status: init.status,
    resources: init.resources,
    runs: init.runs ?? [],
    details: new Map(),
    runDetails: new Map(),
    usage: [],
    days: [],
    requests: [],
    powerAsked: [],
    pushStatus() {
      for (const s of streams) s.write(`event: status\ndata: ${JSON.stringify(fake.status)}\n\n`);
    },
    close: () =>
      new Promise<void>((r) => {
        for (const s of streams) s.end();
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
  return fake;
}
