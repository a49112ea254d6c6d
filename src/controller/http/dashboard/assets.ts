import { readFile } from 'node:fs/promises';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname } from 'node:path';
import { fileURLToPath } from 'node:url';
import { packageRoot } from '../../../core/package-root.js';

/** Where `npm run build` writes the page (vite's outDir, see web/vite.config.ts). */
export function defaultAssetsDir(): string {
  return fileURLToPath(new URL('dist/dashboard/', packageRoot()));
}

const TYPES: Readonly<Record<string, string>> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.json': 'application/json',
};

/**
 * The page may load only its own scripts and styles and talk only to its own origin; Mantine sets
 * CSS variables through style attributes, hence `'unsafe-inline'` for styles (never for scripts).
 */
const HEADERS = {
  'content-security-policy':
    "default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; frame-ancestors 'none'; base-uri 'none'; form-action 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'x-frame-options': 'DENY',
};

/** One flat folder of hashed file names: anything else (`..`, `/`, `%`) is not a file of ours. */
const ASSET_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]*$/;

/**
 * A browser opening one of the page's views by its URL (`/runs/<id>`, a deep link): the page
 * routes it itself (web/src/views.ts). Asked last, after every other route of the server, and
 * only for navigations (`Accept: text/html`), so an API client's typo still gets its 404.
 */
function isPageView(req: IncomingMessage, path: string): boolean {
  if (path.startsWith('/api/') || path.startsWith('/assets/')) return false;
  return (req.headers.accept ?? '').includes('text/html');
}

/**
 * The static half of the dashboard (file I/O): `GET|HEAD /` and `/index.html` answer the page,
 * as does any other path a browser navigates to (a view's deep link),
 * `/assets/<name>` its hashed scripts and styles (cached for a year), everything else is not
 * ours (resolves false). No auth: the files hold no data and no secret. Files found are read once
 * and kept in memory. A missing build answers 503 saying how to make it.
 */
export function assetRoutes(dir: string) {
  const cache = new Map<string, Buffer>();
  const load = async (rel: string): Promise<Buffer | null> => {
    const cached = cache.get(rel);
    if (cached) return cached;
    const body = await readFile(`${dir}/${rel}`).catch(() => null);
    if (body) cache.set(rel, body);
    return body;
  };
  return async (req: IncomingMessage, res: ServerResponse, url: URL): Promise<boolean> => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return false;
    const path = url.pathname;
    let rel: string;
    if (path === '/' || path === '/index.html' || isPageView(req, path)) rel = 'index.html';
    else if (path.startsWith('/assets/') && ASSET_NAME.test(path.slice(8))) rel = path.slice(1);
    else return false;
    const body = await load(rel);
    if (body === null) {
      if (rel !== 'index.html') return false;
      res.writeHead(503, { 'content-type': 'text/plain; charset=utf-8' });
      res.end('The dashboard is not built: run `npm run build`.\n');
      return true;
    }
    res.writeHead(200, {
      ...HEADERS,
      'content-type': TYPES[extname(rel)] ?? 'application/octet-stream',
      'content-length': body.length,
      'cache-control': rel === 'index.html' ? 'no-cache' : 'public, max-age=31536000, immutable',
    });
    res.end(req.method === 'HEAD' ? undefined : body);
    return true;
  };
}
