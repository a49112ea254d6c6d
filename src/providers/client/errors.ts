import { PlatctlError, scrub } from '../../core/errors.js';
import { TransportError } from './transport.js';

/** The platform's error body (docs/api-assumptions.md, "Error body"). */
export interface PlatformErrorBody {
  readonly status?: number;
  readonly code?: string;
  readonly message?: string;
  readonly details?: readonly { readonly field?: string; readonly message?: string }[];
}

/** What kind of failure an API status is, for callers that branch on it. */
export type ApiErrorClass =
  | 'invalid'
  | 'unauthorized'
  | 'forbidden'
  | 'not-found'
  | 'conflict'
  | 'rate-limited'
  | 'server'
  | 'unavailable';

/** Classifies an HTTP status. Pure. */
export function classifyStatus(status: number): ApiErrorClass {
  if (status === 401) return 'unauthorized';
  if (status === 403) return 'forbidden';
  if (status === 404) return 'not-found';
  if (status === 409) return 'conflict';
  if (status === 429) return 'rate-limited';
  if (status === 502 || status === 503 || status === 504) return 'unavailable';
  if (status >= 500) return 'server';
  return 'invalid';
}

/**
 * The platform answered with an error status. The message reads
 * `409 creating workspace ml/dev: already exists` and never contains the API key.
 */
export class ApiError extends PlatctlError {
  /** HTTP status. */
  readonly status: number;
  /** The platform's own error code (`already_exists`, ...), when its body carried one. */
  readonly apiCode: string | undefined;
  /** What was being done ("creating workspace ml/dev"). */
  readonly operation: string;
  readonly errorClass: ApiErrorClass;
  readonly details: readonly { readonly field?: string; readonly message?: string }[];

  constructor(
    status: number,
    operation: string,
    body: PlatformErrorBody | undefined,
    secrets: readonly string[],
  ) {
    const what = body?.message ?? humanizeCode(body?.code) ?? `HTTP ${status}`;
    // a detail the message already says (`spec.x unknown y` and `spec.x: unknown y`) is said once
    const details = (body?.details ?? [])
      .filter(
        (d) => !(d.message && what.includes(d.message) && (!d.field || what.includes(d.field))),
      )
      .map((d) => [d.field, d.message].filter(Boolean).join(': '))
      .filter((d) => d.length > 0 && !what.includes(d));
    const text = `${status} ${operation}: ${what}${details.length ? ` (${details.join('; ')})` : ''}`;
    super('api', scrub(text, secrets));
    this.name = 'ApiError';
    this.status = status;
    this.apiCode = body?.code;
    this.operation = operation;
    this.errorClass = classifyStatus(status);
    this.details = body?.details ?? [];
  }
}

/** The platform could not be reached, or the connection dropped before an answer. */
export class NetworkError extends PlatctlError {
  readonly operation: string;
  constructor(operation: string, detail: string, cause?: unknown) {
    super('network', `${operation}: ${detail}`, { cause });
    this.name = 'NetworkError';
    this.operation = operation;
  }
}

/** A request got no answer within its timeout. */
export class RequestTimeoutError extends PlatctlError {
  readonly operation: string;
  constructor(operation: string, timeoutMs: number) {
    super('timeout', `${operation}: no answer within ${timeoutMs} ms`);
    this.name = 'RequestTimeoutError';
    this.operation = operation;
  }
}

/** Reads an error body that may be JSON, text or nothing. Never throws. */
export function toErrorBody(body: unknown, secrets: readonly string[]): PlatformErrorBody {
  if (body && typeof body === 'object' && !Array.isArray(body)) {
    const b = body as Record<string, unknown>;
    return {
      ...(typeof b.status === 'number' ? { status: b.status } : {}),
      ...(typeof b.code === 'string' ? { code: b.code } : {}),
      ...(typeof b.message === 'string' ? { message: scrub(b.message, secrets) } : {}),
      ...(Array.isArray(b.details) ? { details: scrubDetails(b.details, secrets) } : {}),
    };
  }
  if (typeof body === 'string' && body.trim().length > 0) {
    return { message: scrub(body.trim().slice(0, 300), secrets) };
  }
  return {};
}

function scrubDetails(
  details: unknown[],
  secrets: readonly string[],
): PlatformErrorBody['details'] {
  return details.map((d) => {
    const { field, message } = (d ?? {}) as { field?: unknown; message?: unknown };
    return {
      ...(typeof field === 'string' ? { field: scrub(field, secrets) } : {}),
      ...(typeof message === 'string' ? { message: scrub(message, secrets) } : {}),
    };
  });
}

function humanizeCode(code: string | undefined): string | undefined {
  return code ? code.replace(/_/g, ' ') : undefined;
}

/** Error codes of a dropped or refused connection (Node's; undici's, should a port be built on fetch). */
const NETWORK_CODES = new Set([
  'ECONNRESET',
  'ECONNREFUSED',
  'ECONNABORTED',
  'EPIPE',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'EAI_AGAIN',
  'ENOTFOUND',
  'UND_ERR_SOCKET',
  'UND_ERR_CLOSED',
  'UND_ERR_CONNECT_TIMEOUT',
  'UND_ERR_HEADERS_TIMEOUT',
  'UND_ERR_BODY_TIMEOUT',
]);

/**
 * The code of a failed exchange (`ECONNRESET`, ...), found on the error or its causes; any other
 * {@link TransportError} (a TLS failure, an unreadable answer) gives its own code. Undefined when
 * `err` is no network failure. Pure.
 */
export function networkCode(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 4; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && NETWORK_CODES.has(code)) return code;
    e = (e as { cause?: unknown }).cause;
  }
  if (err instanceof TransportError) return err.code;
  return undefined;
}
