import type { IncomingHttpHeaders } from 'node:http';

/**
 * The header every `/_emulator/` test control needs. It is not a CORS-safelisted header, so a page
 * on another origin can send it only after a preflight, and the emulator grants none: a simple
 * cross-site request (a form, a `text/plain` fetch) never carries it.
 */
export const ADMIN_HEADER = 'X-Emulator-Admin';

/** What the guard knows of the listener. */
export interface AdminGuardOptions {
  /**
   * The emulator listens on a loopback address only: then the `Host` must name loopback too, so a
   * page whose own name was rebound to 127.0.0.1 (DNS rebinding) is refused.
   */
  readonly loopbackOnly: boolean;
}

/**
 * Why a request may not use the test controls, or undefined when it may (pure). Refused: no
 * admin header; a non-loopback `Host` on a loopback listener; an `Origin` (sent by browsers) that
 * is not the emulator's own. A request without `Origin` (curl, tests, scripts) is served.
 */
export function adminRefusal(
  headers: IncomingHttpHeaders,
  options: AdminGuardOptions,
): string | undefined {
  if (headers[ADMIN_HEADER.toLowerCase()] === undefined)
    return `the test controls need the header ${ADMIN_HEADER}: 1, which a page on another site cannot send`;
  const host = headers.host ?? '';
  if (options.loopbackOnly && !isLoopbackName(hostName(host)))
    return `the test controls answer only to a loopback host name, not ${hostName(host) || 'none'}`;
  const origin = headers.origin;
  if (origin !== undefined && origin !== `http://${host}`)
    return 'the test controls refuse requests from another origin';
  return undefined;
}

/** True for `localhost`, `127.x.x.x` and `::1` (a listen address or a Host name). */
export function isLoopbackName(name: string): boolean {
  const bare = name.replace(/^\[(.*)\]$/, '$1').toLowerCase();
  return bare === 'localhost' || bare === '::1' || /^127(\.\d{1,3}){3}$/.test(bare);
}

/** The name part of a `Host` header (`[::1]:8080` → `[::1]`, `localhost:80` → `localhost`). */
function hostName(host: string): string {
  return host.startsWith('[') ? host.slice(0, host.indexOf(']') + 1) : host.split(':')[0]!;
}
