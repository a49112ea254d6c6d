import { brotliDecompressSync, gunzipSync, inflateSync } from 'node:zlib';

/**
 * The `accept-encoding` the transport sends: a page of 1,000 objects from a real platform is
 * mostly repeated keys, and Node's `fetch` asked for these too.
 */
export const ACCEPT_ENCODING = 'gzip, deflate, br';

const DECODERS: Readonly<Record<string, (body: Buffer) => Buffer>> = {
  gzip: gunzipSync,
  'x-gzip': gunzipSync,
  deflate: inflateSync,
  br: brotliDecompressSync,
};

/**
 * `body` decoded from its `content-encoding` (none or `identity`: as it is). Throws for an
 * encoding not in {@link ACCEPT_ENCODING} and for a body that does not decode (zlib's error, with
 * its code). Pure.
 */
export function decodeBody(body: Buffer, encoding: string | undefined): Buffer {
  const name = encoding?.trim().toLowerCase();
  if (!name || name === 'identity' || body.length === 0) return body;
  const decode = DECODERS[name];
  if (!decode) throw new Error(`unsupported content-encoding ${name}`);
  return decode(body);
}
