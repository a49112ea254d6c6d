/**
 * Paths of the page's views (pure): a pattern is a path whose `:name` segments are parameters,
 * e.g. `/resources/:key`. Parameters are URL-encoded in the path, so a resource key with its
 * slashes is one segment.
 */

/** The parameters a path filled in, by name (decoded). */
export type Params = Readonly<Record<string, string>>;

const segments = (path: string) => path.split('/').filter((s) => s !== '');

/** The parameters when `pathname` matches `pattern`; undefined when it does not. */
export function matchPath(pattern: string, pathname: string): Params | undefined {
  const want = segments(pattern);
  const got = segments(pathname);
  if (want.length !== got.length) return undefined;
  const params: Record<string, string> = {};
  for (const [i, w] of want.entries()) {
    const g = got[i] ?? '';
    if (w.startsWith(':')) {
      try {
        params[w.slice(1)] = decodeURIComponent(g);
      } catch {
        return undefined;
      }
    } else if (w !== g) return undefined;
  }
  return params;
}

/** The path of `pattern` with `params` filled in (encoded); throws on a missing parameter. */
export function pathOf(pattern: string, params: Params = {}): string {
  const filled = segments(pattern).map((s) => {
    if (!s.startsWith(':')) return s;
    const value = params[s.slice(1)];
    if (value === undefined) throw new TypeError(`${pattern} needs the parameter ${s.slice(1)}`);
    return encodeURIComponent(value);
  });
  return `/${filled.join('/')}`;
}

/** `search` with `name` set to `value`, or removed when `value` is undefined or empty. */
export function withQuery(search: string, name: string, value: string | undefined): string {
  const q = new URLSearchParams(search);
  if (value === undefined || value === '') q.delete(name);
  else q.set(name, value);
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** The first of `views` whose pattern matches `pathname`, with its parameters. */
export function findView<V extends { readonly path: string }>(
  views: readonly V[],
  pathname: string,
): { readonly view: V; readonly params: Params } | undefined {
  for (const view of views) {
    const params = matchPath(view.path, pathname);
    if (params) return { view, params };
  }
  return undefined;
}

/** The patterns other views link to (web/src/views.ts routes them). */
export const PATHS = {
  resources: '/',
  resource: '/resources/:key',
  runs: '/runs',
  run: '/runs/:runId',
} as const;

/** The page of one resource. */
export const resourceHref = (key: string) => pathOf(PATHS.resource, { key });
/** The page of one run. */
export const runHref = (runId: string) => pathOf(PATHS.run, { runId });
