import type PQueue from 'p-queue';
import { type Clock, systemClock } from '../../core/clock.js';
import { DIALECTS, type DialectName, defaultDialect } from '../../core/dialect.js';
import { PlatctlError } from '../../core/errors.js';
import type { ApiClient, ApiRequest, ApiResponse } from '../../model/api.js';
import { ApiError, NetworkError, RequestTimeoutError } from '../../model/api-errors.js';
import { type Attempt, attempter, eventBase, type RequestEvent } from './attempt.js';
import { toErrorBody } from './errors.js';
import { httpTransport } from './http-transport.js';
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
import type { Transport } from './transport.js';
import { parseBaseUrl } from './wire.js';

export type { Transport } from './transport.js';

/** The API groups substituted into paths; see docs/api-assumptions.md. */
const DEFAULT_GROUPS: ApiClient['groups'] = {
  infra: 'infra.k8smgmt.io',
  paas: 'paas.envmgmt.io',
  billing: 'billing.envmgmt.io',
};

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
  /** How the platform's API differs from the spec's (docs/dialects.md). @default $PLATCTL_DIALECT, else 'spec' */
  readonly dialect?: DialectName;
  /** Per attempt. @default 30000 */
  readonly timeoutMs?: number;
  /** Sleeps between retries. @default systemClock */
  readonly clock?: Clock;
  /** Jitter source in [0, 1). @default Math.random */
  readonly random?: () => number;
  /** How requests are sent. @default {@link httpTransport} to the base URL, closed by `close()` */
  readonly transport?: Transport;
  /** A limiter to share with another client; one is created from `rps`/`concurrency` otherwise. */
  readonly limiter?: PQueue;
  readonly onRequest?: (event: RequestEvent) => void;
  readonly onRetry?: (event: RetryEvent) => void;
}

/**
 * The one HTTP client of the platform: auth header per API family (the dialect's), JSON bodies, a timeout per
 * attempt, one shared rate limiter, retries with full-jitter backoff honouring `Retry-After`, and
 * error bodies turned into {@link ApiError}s that never carry the key. `close()` closes the
 * connections of the transport it made (an injected one is the caller's).
 */
export function createApiClient(options: ApiClientOptions): ApiClient & { close(): void } {
  if (!options.apiKey) throw new PlatctlError('config', 'no API key given');
  const baseUrl = parseBaseUrl(options.baseUrl);
  const groups = { ...DEFAULT_GROUPS, ...options.groups };
  const paths = pathTable(options.paths);
  const dialect = DIALECTS[options.dialect ?? defaultDialect()];
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
  const rotatingKey = async () => {
    const key = await (keyOf as () => Promise<string>)();
    if (!secrets.includes(key)) secrets.push(key);
    return key;
  };
  // one connection per request the limiter lets run at once
  const transport: Transport & { close?(): void } =
    options.transport ?? httpTransport({ baseUrl, maxSockets: limiter.concurrency });
  const attemptOnce = attempter({
    dialect,
    baseUrl,
    transport,
    timeoutMs,
    clock,
    key: typeof keyOf === 'string' ? keyOf : rotatingKey,
    onRequest: options.onRequest,
  });

  async function request<T>(req: ApiRequest): Promise<ApiResponse<T>> {
    let mayHaveReachedServer = false;
    for (let attempt = 1; ; attempt++) {
      if (attempt > 1 && mayHaveReachedServer && req.existsCheck && (await req.existsCheck())) {
        return { status: 200, body: null as T, headers: {}, recovered: true };
      }
      const started = clock.now();
      const result = (await limiter
        .add(
          () => {
            // the last check before it leaves: the limiter may have held it for a while
            if (req.mayStart && !req.mayStart()) {
              throw new PlatctlError(
                'locked',
                `${req.operation}: not sent, no longer allowed to write`,
              );
            }
            return attemptOnce(req, attempt);
          },
          req.signal || req.priority
            ? { ...(req.signal ? { signal: req.signal } : {}), priority: req.priority ?? 0 }
            : {},
        )
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

  // an injected transport is the caller's to close
  const close = () => {
    if (transport !== options.transport) transport.close?.();
  };
  return { groups, paths, dialect, request, close };
}
