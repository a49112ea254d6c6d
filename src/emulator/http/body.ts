import type { IncomingMessage } from 'node:http';
import { ApiError } from './types.js';

const MAX_BODY_BYTES = 1024 * 1024;

/** Reads the raw request body (at most 1 MiB; more is a 400). */
export async function readRaw(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new ApiError(400, 'invalid_request', 'request body too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks).toString('utf8');
}

/** Parses a JSON body; empty is `undefined`; malformed JSON is a 400 naming `body`. */
export function parseJson(raw: string): unknown {
  if (raw.trim() === '') return undefined;
  try {
    return JSON.parse(raw) as unknown;
  } catch {
    throw new ApiError(400, 'invalid_request', 'malformed JSON body', [
      { field: 'body', message: 'is not valid JSON' },
    ]);
  }
}

/**
 * A body the operation will read must be JSON: a `Content-Type` other than `application/json`
 * (or a `+json` type) is a 415. No header, or no body, is accepted.
 */
export function checkContentType(header: string | undefined, raw: string): void {
  if (raw.trim() === '' || header === undefined) return;
  const type = header.split(';')[0]!.trim().toLowerCase();
  if (type === 'application/json' || /^application\/[\w.+-]+\+json$/.test(type)) return;
  throw new ApiError(
    415,
    'invalid_request',
    `content type ${type} is not supported; send application/json`,
    [{ field: 'content-type', message: 'must be application/json' }],
  );
}
