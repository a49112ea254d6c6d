import type { Clock } from '../../core/clock.js';
import type { Dialect } from '../../core/dialect.js';
import { PlatctlError } from '../../core/errors.js';
import type { ApiRequest, ApiResponse } from '../../model/api.js';
import { networkCode } from './errors.js';
import type { AttemptFailure } from './retry.js';
import { AttemptTimeout, type Transport, type TransportResponse } from './transport.js';
import { basePathOf, parseBody, refusedRedirect, requestTarget, routeOf } from './wire.js';

/** One attempt, as reported to the client's `onRequest`. */
export interface RequestEvent {
  readonly operation: string;
  readonly method: string;
  /** The path template, without ids. */
  readonly route: string;
  /** HTTP status; 0 when no answer came (see `failure`). */
  readonly status: number;
  readonly failure?: 'network' | 'timeout';
  /** 1 for the first attempt. */
  readonly attempt: number;
  readonly durationMs: number;
}

/** What one attempt came to: an answer to return, or a failure for the retry policy. */
export type Attempt =
  | { readonly ok: true; readonly response: ApiResponse }
  | { readonly ok: false; readonly failure: AttemptFailure; readonly response?: ApiResponse };

export interface AttemptOptions {
  /** From `parseBaseUrl`. */
  readonly baseUrl: string;
  readonly transport: Transport;
  readonly timeoutMs: number;
  readonly clock: Clock;
  /** The key to send; asked before each attempt. */
  readonly key: string | (() => Promise<string>);
  readonly onRequest?: ((event: RequestEvent) => void) | undefined;
  /** Names the header each API family's key goes in. */
  readonly dialect: Dialect;
}

/**
 * Sends one attempt of a request through the transport (I/O) and classifies its outcome: an
 * answer (accepted or a status failure), a timeout or a network failure. Throws a `config` error
 * for a redirect and an `aborted` one when the caller's signal fired.
 */
export function attempter(
  options: AttemptOptions,
): (req: ApiRequest, attempt: number) => Promise<Attempt> {
  const { baseUrl, transport, timeoutMs, clock, key, onRequest, dialect } = options;
  const basePath = basePathOf(baseUrl);

  function report(
    req: ApiRequest,
    attempt: number,
    started: number,
    status: number,
    failure?: 'network' | 'timeout',
  ) {
    if (!onRequest) return;
    const route = req.route ?? routeOf(req.path);
    const durationMs = clock.now() - started;
    const { operation, method } = req;
    onRequest(
      failure
        ? { operation, method, route, status, failure, attempt, durationMs }
        : { operation, method, route, status, attempt, durationMs },
    );
  }

  return async function attemptOnce(req, attempt) {
    req.onProgress?.({ phase: 'attempt', attempt });
    const headers: Record<string, string> = {
      accept: 'application/json',
      [dialect.authHeader[req.auth]]: typeof key === 'string' ? key : await key(),
    };
    if (req.body !== undefined) headers['content-type'] = 'application/json';
    const path = requestTarget(baseUrl, basePath, req.path, req.query);
    const started = clock.now();
    let res: TransportResponse;
    try {
      res = await transport({
        method: req.method,
        path,
        headers,
        ...(req.body !== undefined ? { body: JSON.stringify(req.body) } : {}),
        timeoutMs,
        ...(req.signal ? { signal: req.signal } : {}),
      });
    } catch (err) {
      if (req.signal?.aborted) {
        throw new PlatctlError('aborted', `${req.operation}: interrupted`, { cause: err });
      }
      if (err instanceof AttemptTimeout) {
        report(req, attempt, started, 0, 'timeout');
        return { ok: false, failure: { type: 'timeout' } };
      }
      const code = networkCode(err);
      if (code === undefined) throw err;
      report(req, attempt, started, 0, 'network');
      return { ok: false, failure: { type: 'network', code } };
    }
    const redirect = refusedRedirect(res.status, req.operation, baseUrl);
    if (redirect) throw redirect;
    const response: ApiResponse = {
      status: res.status,
      body: parseBody(res.text, res.headers['content-type'] ?? null),
      headers: res.headers,
    };
    report(req, attempt, started, res.status);
    const ok = (res.status >= 200 && res.status < 300) || req.accept?.includes(res.status);
    return ok
      ? { ok: true, response }
      : { ok: false, failure: { type: 'status', status: res.status }, response };
  };
}

/** The fields of a request and retry event that come from the request itself. */
export function eventBase(req: ApiRequest) {
  return { operation: req.operation, method: req.method, route: req.route ?? routeOf(req.path) };
}
