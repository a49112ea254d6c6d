import type { ServerResponse } from 'node:http';
import { ApiError, type EmuResponse } from './types.js';

/** Writes an {@link EmuResponse}: strings as text/plain, everything else as JSON. */
export function send(res: ServerResponse, response: EmuResponse): void {
  const headers: Record<string, string> = { ...response.headers };
  let payload = '';
  if (typeof response.body === 'string') {
    headers['content-type'] ??= 'text/plain; charset=utf-8';
    payload = response.body;
  } else if (response.body !== undefined && response.status !== 204) {
    headers['content-type'] ??= 'application/json';
    payload = JSON.stringify(response.body);
  }
  res.writeHead(response.status, headers);
  res.end(payload);
}

/** The error body of docs/api-assumptions.md for an ApiError (anything else becomes a bare 500). */
export function errorResponse(err: unknown): EmuResponse {
  if (err instanceof ApiError) {
    return {
      status: err.status,
      body: {
        status: err.status,
        code: err.code,
        message: err.message,
        ...(err.details ? { details: err.details } : {}),
      },
      ...(err.headers ? { headers: err.headers } : {}),
    };
  }
  // Never echo the thrown value: it may carry internals (or worse); no stack either.
  return { status: 500, body: { status: 500, code: 'internal', message: 'internal server error' } };
}

/** Shorthand for a JSON body with a status (200 unless given). */
export function json(body: unknown, status = 200): EmuResponse {
  return { status, body };
}
