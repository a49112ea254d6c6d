import http, { type IncomingMessage } from 'node:http';
import https from 'node:https';
import type net from 'node:net';
import { AbortGroups } from '../../core/abort-groups.js';
import { ACCEPT_ENCODING, decodeBody } from './content-encoding.js';
import {
  AttemptTimeout,
  type Transport,
  TransportError,
  type TransportRequest,
  type TransportResponse,
} from './transport.js';

// The real implementation of the client's Transport port (transport.ts) on node:http(s). The
// only module of the client that does I/O.

export interface HttpTransportOptions {
  /** `http(s)://host[:port]`; any path of it is the caller's to put in each request's `path`. */
  readonly baseUrl: string;
  /** Connections open to the host at once (more requests wait for one). @default Infinity */
  readonly maxSockets?: number;
}

/**
 * The real {@link Transport}: node:http or node:https by the base URL's scheme, on a keep-alive
 * agent of its own. `close()` closes its connections (idle ones never keep the process alive).
 * `request` is looked up on the module at every call, so interceptors installed later (nock)
 * apply.
 */
export function httpTransport(options: HttpTransportOptions): Transport & { close(): void } {
  const url = new URL(options.baseUrl);
  const lib = url.protocol === 'https:' ? https : http;
  // lifo: the most recently used connection goes first, so spare ones reach their idle timeout;
  // 4 s idle, under the common 5 s of servers (a `Keep-Alive: timeout=` hint shortens it)
  const agent = new lib.Agent({
    keepAlive: true,
    maxSockets: options.maxSockets ?? Number.POSITIVE_INFINITY,
    scheduling: 'lifo',
    timeout: 4_000,
  });
  agent.on('free', markIdle);
  const protocol = url.protocol;
  const hostname = url.hostname.replace(/^\[(.*)\]$/, '$1');
  const port = url.port === '' ? undefined : Number(url.port);

  const send: Transport = (request) =>
    new Promise((resolve, reject) => {
      const { signal } = request;
      if (signal?.aborted) return reject(signal.reason);
      let outgoing: http.ClientRequest;
      dropExpired(agent, Date.now());
      try {
        outgoing = lib.request({
          protocol,
          hostname,
          port,
          agent,
          method: request.method,
          path: request.path,
          headers: { ...SENT_ALWAYS, ...request.headers },
        });
      } catch (err) {
        // a header or path Node refuses to send
        return reject(new TransportError(err));
      }
      const exchange = new Exchange(outgoing, request, resolve, reject);
      (outgoing as Tagged)[EXCHANGE] = exchange;
      outgoing.on('error', onRequestError);
      outgoing.on('response', onResponse);
      outgoing.end(request.body);
    });
  return Object.assign(send, { close: () => agent.destroy() });
}

// When each idle connection was last freed, by the wall clock.
const IDLE_SINCE = Symbol('idleSince');
type Idle = net.Socket & { [IDLE_SINCE]?: number };

function markIdle(socket: Idle): void {
  socket[IDLE_SINCE] = Date.now();
}

/**
 * Destroys the idle connections whose idle timeout has passed by the clock, before a request
 * picks one. The agent's timer cannot fire while the event loop is held (a plan of 100,000
 * resources runs for tens of seconds without yielding), and the server has closed its end by
 * then: a request sent on such a connection meets ECONNRESET, and a create that may have reached
 * the platform must be retried behind an existence check. The agent skips destroyed connections
 * (the oldest idle ones, first in its list) and opens a fresh one.
 */
function dropExpired(agent: http.Agent, now: number): void {
  for (const name in agent.freeSockets) {
    for (const socket of agent.freeSockets[name] ?? []) {
      const since = (socket as Idle)[IDLE_SINCE];
      const limit = socket.timeout ?? 0;
      if (since !== undefined && limit > 0 && now - since >= limit) socket.destroy();
    }
  }
}

/** Sent with every request: compressed answers are accepted, and the client names itself. */
const SENT_ALWAYS = {
  'accept-encoding': ACCEPT_ENCODING,
  'user-agent': `platctl (node ${process.versions.node})`,
};

// The exchange's state hangs on its ClientRequest and its events go to shared handlers: no
// closure per request (they showed in the engine's profile at 10,000 requests).
const EXCHANGE = Symbol('exchange');
type Tagged = { [EXCHANGE]?: Exchange };

/** Requests in flight per caller's signal: one abort listener per signal, not one per request. */
const inFlight = new AbortGroups<Exchange>((exchange, reason) => exchange.fail(reason));

class Exchange {
  readonly #outgoing: http.ClientRequest;
  readonly #signal: AbortSignal | undefined;
  readonly #resolve: (response: TransportResponse) => void;
  readonly #reject: (err: unknown) => void;
  readonly #timer: NodeJS.Timeout;
  #settled = false;
  readonly chunks: Buffer[] = [];

  constructor(
    outgoing: http.ClientRequest,
    request: TransportRequest,
    resolve: (response: TransportResponse) => void,
    reject: (err: unknown) => void,
  ) {
    this.#outgoing = outgoing;
    this.#signal = request.signal;
    this.#resolve = resolve;
    this.#reject = reject;
    this.#timer = setTimeout(onTimeout, request.timeoutMs, this, request.timeoutMs);
    if (this.#signal) inFlight.add(this.#signal, this);
  }

  fail(err: unknown): void {
    if (!this.#end()) return;
    // the connection is dropped, not pooled: the server may still be answering on it
    this.#outgoing.destroy();
    this.#reject(err);
  }

  answer(res: IncomingMessage): void {
    const { chunks } = this;
    let body = chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks);
    try {
      body = decodeBody(body, res.headers['content-encoding']);
    } catch (err) {
      this.fail(new TransportError(err));
      return;
    }
    if (!this.#end()) return;
    this.#resolve({ status: res.statusCode ?? 0, headers: headersOf(res), text: body.toString() });
  }

  /** Marks it settled; false when it already was. */
  #end(): boolean {
    if (this.#settled) return false;
    this.#settled = true;
    clearTimeout(this.#timer);
    if (this.#signal) inFlight.delete(this.#signal, this);
    return true;
  }
}

function exchangeOf(emitter: http.ClientRequest | IncomingMessage): Exchange {
  return (emitter as Tagged)[EXCHANGE] as Exchange;
}

function onTimeout(exchange: Exchange, timeoutMs: number): void {
  exchange.fail(new AttemptTimeout(timeoutMs));
}

function onRequestError(this: http.ClientRequest, err: Error): void {
  exchangeOf(this).fail(new TransportError(err));
}

function onResponse(this: http.ClientRequest, res: IncomingMessage): void {
  (res as Tagged)[EXCHANGE] = exchangeOf(this);
  res.on('data', onData);
  res.on('error', onResponseError);
  res.on('end', onEnd);
}

function onData(this: IncomingMessage, chunk: Buffer): void {
  exchangeOf(this).chunks.push(chunk);
}

function onResponseError(this: IncomingMessage, err: Error): void {
  exchangeOf(this).fail(new TransportError(err));
}

function onEnd(this: IncomingMessage): void {
  exchangeOf(this).answer(this);
}

/** Node's lower-cased headers, with `set-cookie` (its one array) joined like the others. */
function headersOf(res: IncomingMessage): Record<string, string> {
  const headers = res.headers as Record<string, string | string[]>;
  const cookies = headers['set-cookie'];
  if (Array.isArray(cookies)) headers['set-cookie'] = cookies.join(', ');
  return headers as Record<string, string>;
}
