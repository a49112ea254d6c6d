import { createHash } from 'node:crypto';

/** The SHA-256 of `text` (its UTF-8 bytes) as lower-case hex. Pure. */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text).digest('hex');
}
