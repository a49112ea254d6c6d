import { createServer, type Server } from 'node:http';
import { type AdminDeps, serveControl } from '../admin/controls.js';
import { adminRefusal } from '../admin/guard.js';
import type { OpenApiDocument } from '../openapi/load-document.js';
import { type ApiPipelineDeps, handleApi } from './api-pipeline.js';
import { readRaw } from './body.js';
import { docsDocument, serveDocs } from './docs.js';
import { errorResponse, send } from './respond.js';

/** What the HTTP server serves: the API, the docs, and (with `admin`) the test controls. */
export interface ServerDeps {
  readonly api: ApiPipelineDeps;
  /** Mounted only when present (`--admin`). */
  readonly admin?: AdminDeps;
  /** The merged document; `servers` is set to the request's own origin when served. */
  readonly doc: OpenApiDocument;
}

/**
 * Creates (does not start) the emulator's node:http server. `/docs` and `/openapi.json` need no
 * key; `/_emulator/*` exists only with admin deps and answers only requests the admin guard lets
 * through (`admin/guard.ts`); everything else is the API pipeline.
 */
export function createEmulatorServer(deps: ServerDeps): Server {
  return createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://emulator.invalid');
    route(deps, req, res, url).catch((err: unknown) => {
      if (!res.headersSent) send(res, errorResponse(err));
      else res.destroy();
    });
  });
}

async function route(
  deps: ServerDeps,
  req: import('node:http').IncomingMessage,
  res: import('node:http').ServerResponse,
  url: URL,
): Promise<void> {
  const method = req.method ?? 'GET';
  if (
    method === 'GET' &&
    (url.pathname === '/openapi.json' || url.pathname === '/docs/openapi.json')
  ) {
    const origin = `http://${req.headers.host ?? 'localhost'}`;
    const doc = url.pathname === '/openapi.json' ? deps.doc : docsDocument(deps.doc);
    send(res, { status: 200, body: { ...doc, servers: [{ url: origin }] } });
    return;
  }
  if (method === 'GET' && (await serveDocs(url.pathname, res, deps.doc))) return;
  if (url.pathname.startsWith('/_emulator/') && deps.admin) {
    // Checked before the body is read: a refused request changes nothing and learns nothing.
    const refusal = adminRefusal(req.headers, deps.admin.guard);
    if (refusal) {
      send(res, { status: 403, body: { status: 403, code: 'forbidden', message: refusal } });
      return;
    }
    const raw = await readRaw(req);
    if (await serveControl(deps.admin, method, url, raw, res)) return;
    send(res, {
      status: 404,
      body: { status: 404, code: 'not_found', message: 'no such control' },
    });
    return;
  }
  await handleApi(deps.api, req, res, url);
}
