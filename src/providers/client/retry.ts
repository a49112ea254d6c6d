/**
 * When to retry a request and how long to wait first. Pure functions; the client supplies the
 * clock and the random source so tests never sleep.
 */

/** Retry tuning; every field has a default in {@link DEFAULT_RETRY}. */
export interface RetryOptions {
  /** Attempts in all, the first included. @default 5 */
  readonly maxAttempts: number;
  /** Base of the exponential backoff. @default 250 */
  readonly baseDelayMs: number;
  /** Cap of one backoff delay, and of an honoured `Retry-After`. @default 30000 */
  readonly maxDelayMs: number;
  /** Attempts for a `500` on an idempotent read (the spec's "internal error"). @default 3 */
  readonly maxAttemptsOn500: number;
}

export const DEFAULT_RETRY: RetryOptions = {
  maxAttempts: 5,
  baseDelayMs: 250,
  maxDelayMs: 30_000,
  maxAttemptsOn500: 3,
};

/** Why an attempt failed, as far as retrying is concerned. */
export type AttemptFailure =
  | { readonly type: 'status'; readonly status: number }
  | { readonly type: 'network'; readonly code?: string }
  | { readonly type: 'timeout' };

/**
 * Whether a failed attempt is worth another, and whether it may already have reached the server
 * (then a create must check for existence before it is sent again). `convergent`: the write is
 * safe to send again after a `500` (idempotent by name per the spec, or a create whose existence
 * check runs first). Pure.
 */
export function retryDecision(
  failure: AttemptFailure,
  method: string,
  attempt: number,
  options: RetryOptions,
  convergent = false,
): { readonly retry: boolean; readonly mayHaveReachedServer: boolean } {
  if (attempt >= options.maxAttempts) return { retry: false, mayHaveReachedServer: false };
  if (failure.type !== 'status') return { retry: true, mayHaveReachedServer: true };
  const { status } = failure;
  // 429: the platform refused the request before doing anything.
  if (status === 429) return { retry: true, mayHaveReachedServer: false };
  // A gateway error may hide a request the platform did process.
  if (status === 502 || status === 503 || status === 504) {
    return { retry: true, mayHaveReachedServer: true };
  }
  // 500 is an internal error: retried a few times for reads, which cannot duplicate.
  if (status === 500 && method === 'GET' && attempt < options.maxAttemptsOn500) {
    return { retry: true, mayHaveReachedServer: false };
  }
  // A write that failed with 500 may have been done: sent again only when that converges.
  if (status === 500 && convergent && attempt < options.maxAttemptsOn500) {
    return { retry: true, mayHaveReachedServer: true };
  }
  return { retry: false, mayHaveReachedServer: false };
}

/** Full-jitter exponential backoff: a uniform delay in [0, min(cap, base * 2^(attempt-1))). Pure. */
export function backoffDelay(attempt: number, options: RetryOptions, random: () => number): number {
  const ceiling = Math.min(options.maxDelayMs, options.baseDelayMs * 2 ** (attempt - 1));
  return Math.floor(random() * ceiling);
}

/**
 * The delay a `Retry-After` header asks for, in ms (seconds or an HTTP date), capped; undefined
 * when the header is absent or unreadable. Pure.
 */
export function retryAfterMs(
  header: string | null | undefined,
  nowMs: number,
  capMs: number,
): number | undefined {
  if (header === null || header === undefined || header.trim() === '') return undefined;
  const value = header.trim();
  if (/^\d+(\.\d+)?$/.test(value)) return Math.min(capMs, Math.ceil(Number(value) * 1000));
  const at = Date.parse(value);
  if (Number.isNaN(at)) return undefined;
  return Math.min(capMs, Math.max(0, at - nowMs));
}
