/**
 * All of standard input as bytes (I/O), for a `-` path: no decoding here, so the loader checks
 * them exactly as it checks a file's (invalid UTF-8, a NUL byte). Reading stops once more than
 * `limit` bytes have arrived: the loader refuses the oversize input by its size, and an endless
 * pipe costs no more than `limit` plus one chunk.
 */
export async function readStdin(limit: number): Promise<Buffer> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of process.stdin) {
    const buf = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    chunks.push(buf);
    size += buf.length;
    if (size > limit) break;
  }
  return Buffer.concat(chunks);
}
