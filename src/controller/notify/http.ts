import type { OutgoingRequest } from './providers/index.js';

/** A receiver's answer: its status, and its `Retry-After` header when it sent one. */
interface NotifyAnswer {
  readonly status: number;
  readonly retryAfter?: string;
}

/**
 * Sends one request to a receiver and answers its HTTP status (I/O). Rejects when no answer came
 * (network, timeout, abort). The response body is never read: a receiver's echo could carry what
 * it was sent.
 */
export type NotifyHttp = (request: OutgoingRequest, signal: AbortSignal) => Promise<NotifyAnswer>;

/** How long one attempt may take. */
const TIMEOUT_MS = 10_000;

/**
 * The real {@link NotifyHttp} on `fetch`: redirects are not followed (a redirect would carry the
 * Authorization header elsewhere; it counts as a failed delivery), and each attempt is cut after
 * 10 s.
 */
export const fetchHttp: NotifyHttp = async (request, signal) => {
  const res = await fetch(request.url, {
    method: 'POST',
    headers: request.headers,
    body: request.body,
    redirect: 'manual',
    signal: AbortSignal.any([signal, AbortSignal.timeout(TIMEOUT_MS)]),
  });
  await res.body?.cancel().catch(() => {});
  const retryAfter = res.headers.get('retry-after');
  return { status: res.status, ...(retryAfter !== null ? { retryAfter } : {}) };
};
