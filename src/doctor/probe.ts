import { networkCode } from '../providers/client/errors.js';
import type { Transport } from '../providers/client/transport.js';
import { basePathOf, parseBody, requestTarget } from '../providers/client/wire.js';

/** One answer of a probe, or why none came. */
export type Answer =
  | {
      readonly ok: true;
      readonly status: number;
      readonly headers: Readonly<Record<string, string>>;
      readonly body: unknown;
      readonly ms: number;
    }
  | { readonly ok: false; readonly code: string; readonly ms: number };

/** Sends one request with the key in `header` (none when undefined), never retried. */
export type Probe = (
  method: 'GET' | 'POST',
  path: string,
  options?: {
    header?: string;
    query?: Record<string, string>;
    body?: unknown;
  },
) => Promise<Answer>;

/**
 * A probe over the transport (I/O): the key goes only in the header asked for, never in an answer
 * kept or shown; a failure to connect is its code (`ECONNREFUSED`, `CERT_HAS_EXPIRED`), not an
 * exception. `now` times each answer.
 */
export function createProbe(options: {
  readonly baseUrl: string;
  readonly key: string;
  readonly transport: Transport;
  readonly now: () => number;
  readonly timeoutMs?: number;
}): Probe {
  const basePath = basePathOf(options.baseUrl);
  return async (method, path, o = {}) => {
    const started = options.now();
    const headers: Record<string, string> = { accept: 'application/json' };
    if (o.header) headers[o.header] = options.key;
    if (o.body !== undefined) headers['content-type'] = 'application/json';
    try {
      const res = await options.transport({
        method,
        path: requestTarget(options.baseUrl, basePath, path, o.query),
        headers,
        ...(o.body !== undefined ? { body: JSON.stringify(o.body) } : {}),
        timeoutMs: options.timeoutMs ?? 10_000,
      });
      const body = parseBody(res.text, res.headers['content-type'] ?? null);
      return {
        ok: true,
        status: res.status,
        headers: res.headers,
        body,
        ms: options.now() - started,
      };
    } catch (err) {
      const code = networkCode(err) ?? (err instanceof Error ? err.name : 'ERROR');
      return { ok: false, code, ms: options.now() - started };
    }
  };
}
