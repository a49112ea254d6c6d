import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { listenError } from '../../core/listen-error.js';
import type { Logger } from '../../core/logger.js';
import type { HealthCheck } from '../loop/heartbeat.js';
import type { SecretValue } from '../secrets/secret-file.js';
import { DeliveryWindow, deliveryId } from '../sources/webhook-deliveries.js';
import { webhookRelevance } from '../sources/webhook-filter.js';
import { verifyWebhook } from '../sources/webhook-signature.js';
import type { ControllerMetrics } from '../status/metrics.js';
import { type ControllerStatus, statusView } from '../status/status.js';

/** What the HTTP server reads and pokes; nothing else. */
export interface ServerPorts {
  readonly status: ControllerStatus;
  readonly metrics: ControllerMetrics;
  readonly logger: Logger;
  /** True when this replica leads (`/readyz`). */
  ready(): boolean;
  /** The loop's watchdog (`/healthz`); always alive when undefined. */
  health?(): HealthCheck;
  /** Asks the loop for an immediate fetch. */
  trigger(reason: string): void;
  /**
   * Who runs instead of this replica, when it stands by (I/O allowed): a push delivered to a
   * standby is answered 503 naming the leader, so the git host shows it undelivered. Undefined:
   * this replica always runs.
   */
  standby?(): Promise<{ readonly leader: string; readonly message: string } | undefined>;
  /** The clock `nextRunInMs` counts down on. @default Date.now */
  readonly now?: () => number;
  /** The followed branch: pushes to other branches do not trigger. Undefined: any (a directory). */
  readonly webhookBranch?: string;
  /** The shared webhook secret, asked on every delivery (rotation); undefined disables `/hooks/git` (404). */
  readonly webhookSecret?: string | SecretValue;
  /** More routes (the dashboard's), asked in order after the built-in ones. @default [] */
  readonly routes?: readonly HttpRoute[];
}

/**
 * A route set mounted on the controller's server: answers the request and resolves true, or
 * resolves false (having written nothing) to let the next one try; a throw becomes a 500.
 */
export type HttpRoute = (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<boolean>;

const MAX_BODY = 1024 * 1024;

function send(res: ServerResponse, status: number, body: unknown, type = 'application/json'): void {
  const text = typeof body === 'string' ? body : `${JSON.stringify(body, null, 2)}\n`;
  res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
  res.end(text);
}

async function readBody(req: IncomingMessage): Promise<Buffer | undefined> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY) return undefined;
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/**
 * The controller's HTTP endpoints (node:http): `/healthz`, `/readyz`, `/metrics`, `/status`, and
 * `POST /hooks/git` for signed push webhooks, each delivery id taken once (a replay is answered
 * `accepted: false`). Responses never carry a secret.
 */
export function createControllerServer(ports: ServerPorts): Server {
  const deliveries = new DeliveryWindow({ now: ports.now ?? Date.now });
  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    const path = url.pathname;
    if (req.method === 'GET' && path === '/healthz') {
      const h = ports.health?.() ?? { ok: true, heartbeatAgeMs: 0 };
      const age = Math.round(h.heartbeatAgeMs / 1000);
      if (h.ok) return send(res, 200, { status: 'ok', heartbeatAgeSeconds: age });
      return send(res, 503, { status: 'stuck', heartbeatAgeSeconds: age, reason: h.reason });
    }
    if (req.method === 'GET' && path === '/readyz') {
      const ok = ports.ready();
      return send(res, ok ? 200 : 503, { ready: ok, role: ports.status.role });
    }
    if (req.method === 'GET' && path === '/status') {
      return send(res, 200, statusView(ports.status, (ports.now ?? Date.now)()));
    }
    if (req.method === 'GET' && path === '/metrics') {
      const text = await ports.metrics.registry.metrics();
      return send(res, 200, text, ports.metrics.registry.contentType);
    }
    if (path === '/hooks/git') {
      if (req.method !== 'POST') return send(res, 405, { error: 'use POST' });
      if (ports.webhookSecret === undefined) {
        return send(res, 404, { error: 'webhooks are not enabled (no --webhook-secret-file)' });
      }
      const body = await readBody(req);
      if (body === undefined) return send(res, 413, { error: 'body too large' });
      const secret =
        typeof ports.webhookSecret === 'string' ? ports.webhookSecret : await ports.webhookSecret();
      const verdict = verifyWebhook(req.headers, body, secret);
      if (!verdict.ok) {
        ports.logger.warn({ event: 'webhook-refused', reason: verdict.reason }, 'webhook refused');
        return send(res, 401, { error: verdict.reason });
      }
      const relevance = webhookRelevance(req.headers, body, ports.webhookBranch);
      if (!relevance.run) {
        ports.logger.info(
          { event: 'webhook-ignored', reason: relevance.reason },
          'webhook ignored',
        );
        return send(res, 200, { accepted: false, reason: relevance.reason });
      }
      const other = await ports.standby?.();
      if (other) return send(res, 503, { error: other.message, leader: other.leader });
      // a signed delivery replayed (or redelivered) is taken once: its id was accepted already
      const delivery = deliveryId(req.headers);
      if (delivery !== undefined && !deliveries.first(delivery)) {
        ports.logger.info({ event: 'webhook-duplicate', delivery }, 'webhook delivery seen before');
        return send(res, 200, { accepted: false, reason: `duplicate delivery ${delivery}` });
      }
      ports.trigger(`webhook (${verdict.scheme})`);
      return send(res, 202, { accepted: true });
    }
    for (const route of ports.routes ?? []) if (await route(req, res, url)) return;
    return send(res, 404, { error: 'not found' });
  };
  return createServer((req, res) => {
    handle(req, res).catch((err: unknown) => {
      ports.logger.error({ event: 'http-error' }, String(err));
      if (!res.headersSent) send(res, 500, { error: 'internal error' });
      else res.end();
    });
  });
}

/** Listens on `host:port` (port 0 picks one); resolves with the bound address. */
export function listen(server: Server, listenAt: string): Promise<AddressInfo> {
  const i = listenAt.lastIndexOf(':');
  const host = i > 0 ? listenAt.slice(0, i).replace(/^\[|\]$/g, '') : '0.0.0.0';
  const port = Number(i >= 0 ? listenAt.slice(i + 1) : listenAt);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new TypeError(`--listen wants host:port, got ${JSON.stringify(listenAt)}`);
  }
  return new Promise((resolve, reject) => {
    const failed = (err: unknown) => reject(listenError(err, host, port, '--listen'));
    server.once('error', failed);
    server.listen(port, host, () => {
      server.off('error', failed);
      resolve(server.address() as AddressInfo);
    });
  });
}

/** Stops accepting connections and ends the open ones; resolves once the server is closed. */
export function closeServer(server: Server): Promise<void> {
  return new Promise<void>((r) => {
    server.close(() => r());
    server.closeAllConnections();
  });
}
