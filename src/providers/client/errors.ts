import { scrub } from '../../core/errors.js';
import type { PlatformErrorBody } from '../../model/api-errors.js';
import { TransportError } from './transport.js';

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
