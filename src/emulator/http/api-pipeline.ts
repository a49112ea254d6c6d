import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Logger } from '../../core/logger.js';
import type { FaultTable } from '../admin/faults.js';
import type { Journal } from '../admin/journal.js';
import type { OpenApiDocument, OperationEntry } from '../openapi/load-document.js';
import { acceptedHeaders, authenticate } from './auth.js';
import { checkContentType, decodeUtf8, parseJson, readRaw } from './body.js';
import { applyPagingQuirks, type PagingQuirks } from './paging-quirks.js';
import { checkPermission, type PermissionRule } from './permissions.js';
import { errorResponse, send } from './respond.js';
import type { Router } from './router.js';
import {
  ApiError,
  type ApiErrorCode,
  type EmuContext,
  type EmuResponse,
  type HandlerMap,
} from './types.js';
import type { OperationValidator } from './validation.js';

/** Everything the API pipeline needs, built once at startup. */
export interface ApiPipelineDeps {
  readonly ctx: EmuContext;
  readonly doc: OpenApiDocument;
  readonly router: Router;
  readonly validators: ReadonlyMap<string, OperationValidator>;
  readonly handlers: HandlerMap;
  readonly faults: FaultTable;
  readonly journal: Journal;
  readonly logger?: Logger;
  /** A stricter real platform's paging, for clients' tests (off unless set). */
  readonly paging?: PagingQuirks;
}

/**
 * Serves one API request: faults → route (404/405) → body → auth (401) → permission (403) →
 * validation (400) → handler. Every request is journaled (method, path, query, status, the auth
 * header's name); neither keys nor bodies are logged.
 */
export async function handleApi(
  deps: ApiPipelineDeps,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
): Promise<void> {
  const method = req.method ?? 'GET';
  const query = Object.fromEntries(url.searchParams);
  const trace: { authHeader: string | null; operationId: string | null } = {
    authHeader: null,
    operationId: null,
  };
  const fault = deps.faults.hit(method, url.pathname);
  // The request is received in full before an injected latency: the platform has it and acts on
  // it even when the client gives up waiting for the answer (what pending creates are for).
  const received = readRaw(req).then(
    (raw) => ({ raw }),
    (error: unknown) => ({ error }),
  );
  if (fault && fault.latencyMs > 0) {
    await received;
    await new Promise((r) => setTimeout(r, fault.latencyMs));
  }
  if (fault?.drop) {
    req.socket.destroy();
    record(deps, method, url.pathname, query, 0, trace);
    return;
  }
  let response: EmuResponse;
  try {
    if (fault?.status !== undefined) throw faultError(fault.status, fault.retryAfter);
    const body = await received;
    if ('error' in body) throw body.error;
    response = await dispatch(deps, req, body.raw, url, method, { ...query }, trace);
  } catch (err) {
    if (!(err instanceof ApiError))
      deps.logger?.error({ err: String(err), path: url.pathname }, 'handler failed');
    response = errorResponse(err);
  }
  // the platform's time is the emulator's clock (which tests and --clock-speed move), as a
  // client reading `Date` for its usage window or clock skew should see it
  res.setHeader('date', new Date(deps.ctx.clock.now()).toUTCString());
  send(res, response);
  record(deps, method, url.pathname, query, response.status, trace);
}

async function dispatch(
  deps: ApiPipelineDeps,
  req: IncomingMessage,
  raw: Buffer,
  url: URL,
  method: string,
  query: Record<string, unknown>,
  trace: { authHeader: string | null; operationId: string | null },
): Promise<EmuResponse> {
  const match = deps.router.match(method, url.pathname);
  if (match.kind === 'not-found')
    throw new ApiError(404, 'not_found', `no route for ${url.pathname}`);
  if (match.kind === 'method-not-allowed') {
    throw new ApiError(405, 'not_allowed', `${method} not allowed`, undefined, {
      allow: match.allowed.join(', '),
    });
  }
  const entry: OperationEntry = match.entry;
  trace.operationId = entry.operationId;
  const { principal, header } = authenticate(
    deps.ctx,
    acceptedHeaders(deps.doc, entry),
    req.headers,
  );
  trace.authHeader = header;
  const rule = entry.op['x-emulator-permission'] as PermissionRule | undefined;
  checkPermission(deps.ctx, rule, principal, match.params);
  const validator = deps.validators.get(entry.operationId)!;
  validator.params(match.params);
  validator.query(query);
  applyPagingQuirks(deps.paging, entry, query);
  checkContentType(req.headers['content-type'], raw);
  const body = parseJson(decodeUtf8(raw));
  validator.body(body);
  const handler = deps.handlers[entry.operationId];
  if (!handler) throw new ApiError(500, 'internal', `no handler for ${entry.operationId}`);
  const headers = Object.fromEntries(
    Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : v]),
  );
  return handler(
    {
      operationId: entry.operationId,
      method,
      path: url.pathname,
      params: match.params,
      query,
      body,
      headers,
      principal,
    },
    deps.ctx,
  );
}

const CODE_BY_STATUS: Readonly<Record<number, ApiErrorCode>> = {
  400: 'invalid_request',
  401: 'unauthorized',
  403: 'forbidden',
  404: 'not_found',
  409: 'conflict',
  429: 'rate_limited',
};

function faultError(status: number, retryAfter: number | undefined): ApiError {
  const headers = retryAfter !== undefined ? { 'retry-after': String(retryAfter) } : undefined;
  const code = CODE_BY_STATUS[status] ?? (status >= 500 ? 'internal' : 'invalid_request');
  return new ApiError(status, code, `injected fault ${status}`, undefined, headers);
}

function record(
  deps: ApiPipelineDeps,
  method: string,
  path: string,
  query: Record<string, unknown>,
  status: number,
  trace: { authHeader: string | null; operationId: string | null },
): void {
  const q = Object.fromEntries(Object.entries(query).map(([k, v]) => [k, String(v)]));
  deps.journal.record({
    time: new Date(deps.ctx.clock.now()).toISOString(),
    method,
    path,
    query: q,
    status,
    authHeader: trace.authHeader,
    operationId: trace.operationId,
  });
  deps.logger?.debug({ method, path, status }, 'request');
}
