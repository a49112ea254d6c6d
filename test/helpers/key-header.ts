import { DIALECTS, defaultDialect } from '../../src/core/dialect.js';

/**
 * The key in every header the test platform's dialect (`PLATCTL_DIALECT`, as the emulator and
 * the client read it) takes it in: a test's own request then reaches any operation, in either
 * dialect, as the engine's requests do.
 */
export function keyHeaders(key: string): Record<string, string> {
  const headers = Object.values(DIALECTS[defaultDialect()].authHeader);
  return Object.fromEntries(headers.map((h) => [h.toLowerCase(), key]));
}
