import { ADMIN_HEADER } from './guard.js';

/** The headers that let a caller use the `/_emulator/` test controls (see {@link ADMIN_HEADER}). */
const ADMIN_HEADERS: Readonly<Record<string, string>> = { [ADMIN_HEADER]: '1' };

/** {@link ADMIN_HEADERS} for a test control's path (`/_emulator/...`), none for any other path. */
export function controlHeaders(path: string): Readonly<Record<string, string>> {
  return path.startsWith('/_emulator/') ? ADMIN_HEADERS : {};
}

/**
 * Calls one test control of an emulator started with `--admin` (I/O): `path` is the whole path
 * (`/_emulator/faults`), `body` is sent as JSON when given. Resolves with the response as is.
 */
export function emulatorControl(
  baseUrl: string,
  method: string,
  path: string,
  body?: unknown,
): Promise<Response> {
  const json: Record<string, string> =
    body === undefined ? {} : { 'content-type': 'application/json' };
  return fetch(`${baseUrl}${path}`, {
    method,
    headers: { ...ADMIN_HEADERS, ...json },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
}
