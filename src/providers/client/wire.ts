import { PlatctlError } from '../../core/errors.js';

// Wire-level helpers of the API client: base URL checks, body parsing, metric routes. Pure.

/** A best-effort path template when the caller gave none: segments after an id-bearing collection. */
export function routeOf(path: string): string {
  return path.replace(
    /\/(projects|project|users|workspaces|computeinstances|services|clusters|cluster|blueprint|version)\/([^/]+)/g,
    '/$1/{}',
  );
}

/** A response body: JSON when it says so (text if it is not valid JSON), text otherwise, null when empty. */
export function parseBody(text: string, contentType: string | null): unknown {
  if (text.length === 0) return null;
  if (contentType?.includes('json')) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

/** The base URL without trailing slashes; a `config` error unless it is an http(s) URL. */
export function parseBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new PlatctlError('config', `base URL is not a URL: ${raw}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new PlatctlError('config', `base URL must be http or https: ${raw}`);
  }
  return url.href.replace(/\/+$/, '');
}

/**
 * fetch's refusal of a redirect (`redirect: 'error'`, a TypeError caused by it) as the error to
 * throw; undefined for any other failure. A redirect is a base URL to fix, never followed: the
 * key header would go along.
 */
export function refusedRedirect(
  err: unknown,
  operation: string,
  baseUrl: string,
): PlatctlError | undefined {
  const cause = (err as { cause?: unknown }).cause;
  if (!(err instanceof TypeError && cause instanceof Error && /redirect/i.test(cause.message))) {
    return undefined;
  }
  return new PlatctlError(
    'config',
    `${operation}: the platform answered with a redirect, which platctl does not follow (it would carry the API key elsewhere): check the base URL ${baseUrl}`,
  );
}
