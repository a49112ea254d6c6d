import { PlatctlError } from '../core/errors.js';

const UNITS: Readonly<Record<string, number>> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };

/**
 * Parses a duration like `5m`, `30s`, `1h30m`, `250ms` (a bare number is seconds) into
 * milliseconds. Throws a `usage` error naming the flag for anything else. Pure.
 */
export function parseDuration(text: string, flag = 'duration'): number {
  const t = text.trim();
  if (/^\d+(\.\d+)?$/.test(t)) return Math.round(Number(t) * 1000);
  const parts = [...t.matchAll(/(\d+(?:\.\d+)?)(ms|s|m|h)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== t) {
    throw new PlatctlError(
      'usage',
      `${flag} wants a duration like 30s, 5m or 1h, got ${JSON.stringify(text)}`,
    );
  }
  const ms = parts.reduce((sum, p) => sum + Number(p[1]) * (UNITS[p[2] ?? 's'] ?? 1000), 0);
  if (!(ms > 0)) throw new PlatctlError('usage', `${flag} must be longer than zero, got ${text}`);
  return Math.round(ms);
}
