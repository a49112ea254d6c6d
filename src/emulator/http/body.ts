import { isUtf8 } from 'node:buffer';
import type { IncomingMessage } from 'node:http';
import { ApiError } from './types.js';

const MAX_BODY_BYTES = 1024 * 1024;

/** Reads the raw request body as bytes (at most 1 MiB; more is a 400). */
export async function readRaw(req: IncomingMessage): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    size += (chunk as Buffer).length;
    if (size > MAX_BODY_BYTES) throw new ApiError(400, 'invalid_request', 'request body too large');
    chunks.push(chunk as Buffer);
  }
  return Buffer.concat(chunks);
}

/**
 * The body as text. JSON between systems is UTF-8 (RFC 8259 §8.1): bytes that are not are a 400
 * naming the first bad byte, never replaced by U+FFFD and stored.
 */
export function decodeUtf8(raw: Buffer): string {
  if (isUtf8(raw)) return raw.toString('utf8');
  throw new ApiError(400, 'invalid_request', 'request body is not valid UTF-8', [
    { field: 'body', message: `byte ${firstBadByte(raw)} is not valid UTF-8` },
  ]);
}

/** Offset of the first byte of `raw` that does not decode (the bytes before it all do). */
function firstBadByte(raw: Buffer): number {
  let offset = 0;
  for (const ch of raw.toString('utf8')) {
    const cp = ch.codePointAt(0)!;
    const genuine = raw[offset] === 0xef && raw[offset + 1] === 0xbf && raw[offset + 2] === 0xbd;
    if (cp === 0xfffd && !genuine) return offset;
    offset += cp < 0x80 ? 1 : cp < 0x800 ? 2 : cp < 0x10000 ? 3 : 4;
  }
  return offset;
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
 * A body the operation will read must be UTF-8 JSON: a `Content-Type` other than
 * `application/json` (or a `+json` type), or one declaring a charset other than UTF-8, is a 415
 * with `Accept` (RFC 9110 §15.5.16). No header, or no body, is accepted.
 */
export function checkContentType(header: string | undefined, raw: Buffer): void {
  if (header === undefined || isBlank(raw)) return;
  const [essence, ...params] = header.split(';');
  const type = essence!.trim().toLowerCase();
  if (type !== 'application/json' && !/^application\/[\w.+-]+\+json$/.test(type)) {
    throw unsupported(`content type ${type} is not supported; send application/json`, {
      field: 'content-type',
      message: 'must be application/json',
    });
  }
  const charset = params
    .map((p) => p.split('='))
    .find(([name]) => name?.trim().toLowerCase() === 'charset')?.[1]
    ?.trim()
    .replace(/^"(.*)"$/, '$1');
  if (charset !== undefined && charset.toLowerCase() !== 'utf-8') {
    throw unsupported(`charset ${charset} is not supported; send JSON as UTF-8`, {
      field: 'content-type',
      message: 'charset must be utf-8',
    });
  }
}

function unsupported(message: string, detail: { field: string; message: string }): ApiError {
  return new ApiError(415, 'invalid_request', message, [detail], { accept: 'application/json' });
}

/** Nothing but JSON whitespace (RFC 8259 §2: space, tab, line feed, carriage return). */
function isBlank(raw: Buffer): boolean {
  return raw.every((b) => b === 0x20 || b === 0x09 || b === 0x0a || b === 0x0d);
}
