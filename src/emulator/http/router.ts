import type { OperationEntry } from '../openapi/load-document.js';

interface Route {
  readonly entry: OperationEntry;
  readonly regex: RegExp;
  readonly names: readonly string[];
  readonly literals: number;
}

/** The outcome of matching a request: an operation, a known path with another method, or nothing. */
export type RouteMatch =
  | { kind: 'found'; entry: OperationEntry; params: Record<string, string> }
  | { kind: 'method-not-allowed'; allowed: string[] }
  | { kind: 'not-found' };

/**
 * Matches method + path against the document's path templates. Trailing slashes are ignored
 * (the spec writes `/auth/v1/users/`), parameters are percent-decoded, and templates with more
 * literal segments win over ones with parameters in the same place.
 */
export class Router {
  readonly #routes: Route[];

  constructor(operations: readonly OperationEntry[]) {
    this.#routes = operations
      .map((entry) => compile(entry))
      .sort((a, b) => b.literals - a.literals);
  }

  match(method: string, path: string): RouteMatch {
    const clean = trimSlash(path);
    const allowed: string[] = [];
    for (const route of this.#routes) {
      const m = route.regex.exec(clean);
      if (!m) continue;
      if (route.entry.method !== method) {
        allowed.push(route.entry.method);
        continue;
      }
      const params: Record<string, string> = {};
      try {
        route.names.forEach((name, i) => {
          params[name] = decodeURIComponent(m[i + 1] ?? '');
        });
      } catch {
        return { kind: 'not-found' };
      }
      return { kind: 'found', entry: route.entry, params };
    }
    return allowed.length > 0 ? { kind: 'method-not-allowed', allowed } : { kind: 'not-found' };
  }
}

function compile(entry: OperationEntry): Route {
  const names: string[] = [];
  let literals = 0;
  const pattern = trimSlash(entry.path)
    .split('/')
    .map((seg) => {
      const p = /^\{(.+)\}$/.exec(seg);
      if (p) {
        names.push(p[1]!);
        return '([^/]+)';
      }
      literals++;
      return seg.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
    })
    .join('/');
  return { entry, regex: new RegExp(`^${pattern}$`), names, literals };
}

function trimSlash(path: string): string {
  return path.length > 1 && path.endsWith('/') ? path.slice(0, -1) : path;
}
