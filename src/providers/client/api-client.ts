import type PQueue from 'p-queue';
import { type Clock, systemClock } from '../../core/clock.js';
import { PlatctlError } from '../../core/errors.js';
import type { ApiClient, ApiRequest, ApiResponse, AuthGeneration } from '../types.js';
import { ApiError, NetworkError, networkCode, RequestTimeoutError, toErrorBody } from './errors.js';
import { pathTable } from './paths.js';
import { createRateLimiter, type RateLimitOptions } from './rate-limiter.js';
import {
  type AttemptFailure,
  backoffDelay,
  DEFAULT_RETRY,
  type RetryOptions,
  retryAfterMs,
  retryDecision,
} from './retry.js';
import { parseBaseUrl, parseBody, refusedRedirect, routeOf } from './wire.js';

/** The API groups substituted into paths; see docs/api-assumptions.md. */
export const DEFAULT_GROUPS: ApiClient['groups'] = {
  infra: 'infra.k8smgmt.io',
  paas: 'paas.envmgmt.io',
  billing: 'billing.envmgmt.io',
};

/** One attempt, as reported to {@link ApiClientOptions.onRequest}. */
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

/** A retry about to wait, as reported to {@link ApiClientOptions.onRetry}. */
export interface RetryEvent extends RequestEvent {
  readonly delayMs: number;
}

export interface ApiClientOptions extends RateLimitOptions, Partial<RetryOptions> {
  /** `https://console.example.com`; a path prefix is kept. */
  readonly baseUrl: string;
  /** Never logged, never in an error. A function is asked before each attempt (key rotation). */
  readonly apiKey: string | (() => Promise<string>);
  readonly groups?: Partial<ApiClient['groups']>;
  /** Replacements for entries of the table of paths the spec does not show ({@link pathTable}). */
  readonly paths?: Readonly<Record<string, string>>;
  /** Per attempt. @default 30000 */
  readonly timeoutMs?: number;
  /** Sleeps between retries. @default systemClock */
  readonly clock?: Clock;
  /** Jitter source in [0, 1). @default Math.random */
  readonly random?: () => number;
  /** @default globalThis.fetch, looked up on every call (so interceptors installed later apply) */
  readonly fetch?: typeof globalThis.fetch;
  /** A limiter to share with another client; one is created from `rps`/`concurrency` otherwise. */
  readonly limiter?: PQueue;
  readonly onRequest?: (event: RequestEvent) => void;
  readonly onRetry?: (event: RetryEvent) => void;
}

const AUTH_HEADER: Record<AuthGeneration, string> = {
  v1: 'X-SERVICE-API-KEYID',
  v2: 'X-SERVICE-API-KEYID',
  v3: 'X-API-KEY',
};

type Attempt =
  | { readonly ok: true; readonly response: ApiResponse }
  | { readonly ok: false; readonly failure: AttemptFailure; readonly response?: ApiResponse };

/**
 * The one HTTP client of the platform: auth header per generation, JSON bodies, a timeout per
 * attempt, one shared rate limiter, retries with full-jitter backoff honouring `Retry-After`, and
 * error bodies turned into {@link ApiError}s that never carry the key.
 */
export function createApiClient(options: ApiClientOptions): ApiClient {
  if (!options.apiKey) throw new PlatctlError('config', 'no API key given');
  const baseUrl = parseBaseUrl(options.baseUrl);
  const groups = { ...DEFAULT_GROUPS, ...options.groups };
  const paths = pathTable(options.paths);
  const retry: RetryOptions = {
    maxAttempts: options.maxAttempts ?? DEFAULT_RETRY.maxAttempts,
    baseDelayMs: options.baseDelayMs ?? DEFAULT_RETRY.baseDelayMs,
    maxDelayMs: options.maxDelayMs ?? DEFAULT_RETRY.maxDelayMs,
    maxAttemptsOn500: options.maxAttemptsOn500 ?? DEFAULT_RETRY.maxAttemptsOn500,
  };
  const timeoutMs = options.timeoutMs ?? 30_000;
  const clock = options.clock ?? systemClock;
  const random = options.random ?? Math.random;
  const limiter = options.limiter ?? createRateLimiter(options);
  const keyOf = options.apiKey;
  // every key this client has sent, scrubbed from any error it raises
  const secrets: string[] = typeof keyOf === 'string' ? [keyOf] : [];
  const currentKey = async () => {
    const key = typeof keyOf === 'string' ? keyOf : await keyOf();
    if (!secrets.includes(key)) secrets.push(key);
    return key;
  };

  async function attemptOnce(req: ApiRequest, attempt: number): Promise<Attempt> {
    req.onProgress?.({ phase: 'attempt', attempt });
    const url = new URL(baseUrl + req.path);
    for (const [name, value] of Object.entries(req.query ?? {})) {
      if (value !== undefined) url.searchParams.set(name, String(value));
    }
    const headers: Record<string, string> = {
      accept: 'application/json',
      [AUTH_HEADER[req.auth]]: await currentKey(),
    };
    if (req.body !== undefined) headers['content-type'] = 'application/json';
    // One controller per attempt, aborted by its timer or the caller's signal: cheaper than
    // AbortSignal.timeout + AbortSignal.any, which showed in the engine's profile.
    const attemptSignal = new AbortController();
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      attemptSignal.abort(new DOMException('The attempt timed out', 'TimeoutError'));
    }, timeoutMs);
    const onAbort = () => attemptSignal.abort(req.signal?.reason);
    if (req.signal?.aborted) onAbort();
    else req.signal?.addEventListener('abort', onAbort, { once: true });
    const started = clock.now();
    const report = (status: number, failure?: 'network' | 'timeout') =>
      options.onRequest?.({
        ...eventBase(req),
        status,
        ...(failure ? { failure } : {}),
        attempt,
        durationMs: clock.now() - started,
      });
    try {
      const fetchImpl = options.fetch ?? globalThis.fetch;
      const res = await fetchImpl(url, {
        method: req.method,
        headers,
        ...(req.body !== undefined ? { body: JSON.stringify(req.body) } : {}),
        signal: attemptSignal.signal,
        // redirects refused (the key would go along); no window: no copy of each request
        redirect: 'error',
        window: null,
      });
      const text = await res.text();
      const response: ApiResponse = {
        status: res.status,
        body: parseBody(text, res.headers.get('content-type')),
        headers: Object.fromEntries(res.headers),
      };
      report(res.status);
      const ok = (res.status >= 200 && res.status < 300) || req.accept?.includes(res.status);
      return ok
        ? { ok: true, response }
        : { ok: false, failure: { type: 'status', status: res.status }, response };
    } catch (err) {
      if (req.signal?.aborted) {
        throw new PlatctlError('aborted', `${req.operation}: interrupted`, { cause: err });
      }
      if (timedOut) {
        report(0, 'timeout');
        return { ok: false, failure: { type: 'timeout' } };
      }
      const redirect = refusedRedirect(err, req.operation, baseUrl);
      if (redirect) throw redirect;
      const code = networkCode(err);
      if (code !== undefined) {
        report(0, 'network');
        return { ok: false, failure: { type: 'network', code } };
      }
      throw err;
    } finally {
      clearTimeout(timer);
      req.signal?.removeEventListener('abort', onAbort);
    }
  }

  async function request<T>(req: ApiRequest): Promise<ApiResponse<T>> {
    let mayHaveReachedServer = false;
    for (let attempt = 1; ; attempt++) {
      if (attempt > 1 && mayHaveReachedServer && req.existsCheck && (await req.existsCheck())) {
        return { status: 200, body: null as T, headers: {}, recovered: true };
      }
      const started = clock.now();
      const result = (await limiter
        .add(() => attemptOnce(req, attempt), req.signal ? { signal: req.signal } : {})
        .catch((err: unknown) => {
          // Aborted while waiting for its turn: nothing was sent.
          if (req.signal?.aborted && !(err instanceof PlatctlError)) {
            throw new PlatctlError('aborted', `${req.operation}: interrupted`, { cause: err });
          }
          throw err;
        })) as Attempt;
      if (result.ok) return result.response as ApiResponse<T>;
      const { failure, response } = result;
      if (
        mayHaveReachedServer &&
        failure.type === 'status' &&
        req.acceptOnRetry?.includes(failure.status)
      ) {
        return response as ApiResponse<T>;
      }
      const convergent = req.idempotent === true || req.existsCheck !== undefined;
      const decision = retryDecision(failure, req.method, attempt, retry, convergent);
      if (!decision.retry) throw finalError(req, failure, response, attempt);
      mayHaveReachedServer ||= decision.mayHaveReachedServer;
      const delayMs =
        retryAfterMs(response?.headers['retry-after'], clock.now(), retry.maxDelayMs) ??
        backoffDelay(attempt, retry, random);
      options.onRetry?.({
        ...eventBase(req),
        status: response?.status ?? 0,
        ...(failure.type !== 'status' ? { failure: failure.type } : {}),
        attempt,
        durationMs: clock.now() - started,
        delayMs,
      });
      req.onProgress?.({ phase: 'backoff', attempt, delayMs });
      try {
        await clock.sleep(delayMs, req.signal);
      } catch (err) {
        throw new PlatctlError('aborted', `${req.operation}: interrupted`, { cause: err });
      }
    }
  }

  function finalError(
    req: ApiRequest,
    failure: AttemptFailure,
    response: ApiResponse | undefined,
    attempts: number,
  ): PlatctlError {
    const tries = attempts > 1 ? ` (after ${attempts} attempts)` : '';
    if (failure.type === 'timeout')
      return new RequestTimeoutError(req.operation + tries, timeoutMs);
    if (failure.type === 'network') {
      const code = failure.code ? ` (${failure.code})` : '';
      return new NetworkError(
        req.operation,
        `connection to the platform at ${baseUrl} failed${code}${tries}`,
      );
    }
    const all = [...secrets, ...(req.secrets ?? [])];
    return new ApiError(failure.status, req.operation, toErrorBody(response?.body, all), all);
  }

  return { groups, paths, request };
}

function eventBase(req: ApiRequest) {
  return { operation: req.operation, method: req.method, route: req.route ?? routeOf(req.path) };
}
