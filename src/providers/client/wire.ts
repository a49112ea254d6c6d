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

/**
 * The base URL without trailing slashes; a `config` error unless it is an http(s) URL without
 * credentials in it.
 */
export function parseBaseUrl(raw: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new PlatctlError('config', `base URL is not a URL: ${withoutUserinfo(raw)}`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new PlatctlError('config', `base URL must be http or https: ${withoutUserinfo(raw)}`);
  }
  if (url.username !== '' || url.password !== '') {
    // named without them: the URL is printed in errors, and the key goes in a header anyway
    url.username = '';
    url.password = '';
    throw new PlatctlError(
      'config',
      `base URL must not hold credentials (the API key is sent as a header): ${url.href}`,
    );
  }
  return url.href.replace(/\/+$/, '');
}

/** `scheme://user:secret@host` → `scheme://***@host`, for a URL that could not be parsed. */
function withoutUserinfo(raw: string): string {
  return raw.replace(/\/\/[^/?#]*@/, '//***@');
}

/** The redirect statuses (Fetch's list): refused. Any other 3xx (300, 304) is an ordinary answer. */
const REDIRECTS = new Set([301, 302, 303, 307, 308]);

/**
 * The error to throw for a redirect answer; undefined for any other status. A redirect is a base
 * URL to fix, never followed: the key header would go along. Pure.
 */
export function refusedRedirect(
  status: number,
  operation: string,
  baseUrl: string,
): PlatctlError | undefined {
  if (!REDIRECTS.has(status)) return undefined;
  return new PlatctlError(
    'config',
    `${operation}: the platform answered with a redirect, which platctl does not follow (it would carry the API key elsewhere): check the base URL ${baseUrl}`,
  );
}

/**
 * A path the URL parser sends unchanged: segments of characters it leaves as they are, no dot
 * segment (`.`, `..`, or either spelled with `%2e`, which it resolves).
 */
const PLAIN_PATH = /^(?!.*%2e)(?!.*\/\.\.?(?:\/|$))(?:\/[\w\-.~!$&'()*+,;=:@%]*)+$/i;

/**
 * The request target of `path` under the base URL (`https://host/prefix`) with the defined
 * `query` values set, exactly as `new URL(baseUrl + path)` and `searchParams.set` write it.
 * `basePath` is the base URL's path (`/prefix`, `''`), undefined when the base URL has a query or
 * fragment (then every path takes the parser's way). Pure.
 */
export function requestTarget(
  baseUrl: string,
  basePath: string | undefined,
  path: string,
  query: Readonly<Record<string, string | number | boolean | undefined>> | undefined,
): string {
  let params: URLSearchParams | undefined;
  for (const name in query) {
    const value = query[name];
    if (value === undefined) continue;
    params ??= new URLSearchParams();
    params.set(name, String(value));
  }
  if (basePath !== undefined && PLAIN_PATH.test(path))
    return params ? `${basePath + path}?${params}` : basePath + path;
  // the rare path to normalize (a dot segment, a space, a query of its own): the URL parser's way
  const url = new URL(baseUrl + path);
  if (params) for (const [name, value] of params) url.searchParams.set(name, value);
  return url.pathname + url.search;
}

/** The path of a base URL from {@link parseBaseUrl} for {@link requestTarget}. Pure. */
export function basePathOf(baseUrl: string): string | undefined {
  const url = new URL(baseUrl);
  return url.search || url.hash ? undefined : url.pathname.replace(/\/+$/, '');
}
