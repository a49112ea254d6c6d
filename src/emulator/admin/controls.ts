import { randomBytes } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import type { EmulatorClock } from '../clock.js';
import { hashKey } from '../http/auth.js';
import { decodeUtf8 } from '../http/body.js';
import { errorResponse, json, send } from '../http/respond.js';
import { ApiError, type EmuContext, type EmuResponse } from '../http/types.js';
import { getOr404 } from '../lookups.js';
import { type FaultSpec, type FaultTable, patternError } from './faults.js';
import type { AdminGuardOptions } from './guard.js';
import type { Journal } from './journal.js';

/** What the `/_emulator/` test controls act on. */
export interface AdminDeps {
  readonly ctx: EmuContext;
  readonly clock: EmulatorClock;
  readonly faults: FaultTable;
  readonly journal: Journal;
  /** Who may call the controls (`guard.ts`). */
  readonly guard: AdminGuardOptions;
  /** Clears the store, re-seeds it and puts the clock back. */
  readonly reset: () => void;
  /** Persists the clock offset after an advance. */
  readonly saveClock: () => void;
  /** Drives a resource to `failed` (the paas module's control), when available. */
  readonly fail?: (ctx: EmuContext, body: Record<string, unknown>) => EmuResponse;
}

type Control = (
  deps: AdminDeps,
  body: Record<string, unknown>,
  m: RegExpExecArray,
  url: URL,
) => EmuResponse;

const CONTROLS: readonly [string, RegExp, Control][] = [
  ['GET', /^\/_emulator\/clock$/, ({ clock }) => json({ now: iso(clock.now()) })],
  ['POST', /^\/_emulator\/clock\/advance$/, advanceClock],
  [
    'POST',
    /^\/_emulator\/faults$/,
    (deps, body) => json({ id: deps.faults.add(faultSpec(body)) }, 201),
  ],
  [
    'DELETE',
    /^\/_emulator\/faults$/,
    (deps) => {
      deps.faults.clear();
      return { status: 204 };
    },
  ],
  ['GET', /^\/_emulator\/journal$/, journal],
  [
    'POST',
    /^\/_emulator\/reset$/,
    (deps) => {
      deps.reset();
      return json({ now: iso(deps.clock.now()) });
    },
  ],
  ['POST', /^\/_emulator\/users\/([^/]+)\/apikeys$/, issueKey],
  ['POST', /^\/_emulator\/apikeys\/rotate$/, rotateKey],
  ['POST', /^\/_emulator\/fail$/, failResource],
];

/**
 * Serves `/_emulator/...` (only mounted with `--admin`; no API key needed, the server's admin guard
 * has let the request through). Returns false when no control matches. Controls are not journaled.
 */
export async function serveControl(
  deps: AdminDeps,
  method: string,
  url: URL,
  rawBody: Buffer,
  res: ServerResponse,
): Promise<boolean> {
  const found = CONTROLS.find(([m, re]) => m === method && re.test(url.pathname));
  if (!found) return false;
  let response: EmuResponse;
  try {
    const body = controlBody(rawBody);
    response = found[2](deps, body, found[1].exec(url.pathname)!, url);
  } catch (err) {
    response = errorResponse(err);
  }
  send(res, response);
  return true;
}

/** A control's JSON object body; `{}` when empty; a 400 when it is not a JSON object. */
function controlBody(raw: Buffer): Record<string, unknown> {
  const text = decodeUtf8(raw);
  if (text.trim() === '') return {};
  let body: unknown;
  try {
    body = JSON.parse(text);
  } catch {
    throw bad('malformed JSON body');
  }
  if (typeof body !== 'object' || body === null || Array.isArray(body)) {
    throw bad('the body must be a JSON object');
  }
  return body as Record<string, unknown>;
}

/** Ten years: far beyond any lifecycle, and far from where dates stop being representable. */
const MAX_ADVANCE_SECONDS = 10 * 365 * 24 * 3600;

function advanceClock(deps: AdminDeps, body: Record<string, unknown>): EmuResponse {
  const seconds = body.seconds;
  if (typeof seconds !== 'number' || !(seconds >= 0) || seconds > MAX_ADVANCE_SECONDS) {
    throw bad(`seconds must be a number within 0..${MAX_ADVANCE_SECONDS} (ten years)`, 'seconds');
  }
  deps.clock.advance(seconds);
  deps.saveClock();
  return json({ now: iso(deps.clock.now()) });
}

function journal(
  deps: AdminDeps,
  _b: Record<string, unknown>,
  _m: RegExpExecArray,
  url: URL,
): EmuResponse {
  const since = Number(url.searchParams.get('since') ?? 0);
  return json({
    entries: deps.journal.since(Number.isFinite(since) ? since : 0),
    last: deps.journal.last,
  });
}

function issueKey(deps: AdminDeps, _b: Record<string, unknown>, m: RegExpExecArray): EmuResponse {
  const accountId = decodeURIComponent(m[1]!);
  getOr404(deps.ctx, 'users', accountId, `user ${accountId}`);
  const apiKey = `emu_${randomBytes(24).toString('hex')}`;
  const hash = hashKey(apiKey);
  deps.ctx.store.put('apikeys', hash, { hash, accountId });
  return json({ apiKey }, 201);
}

/** A new key for the holder of `apiKey`, which stops working at once (a credential rotation). */
function rotateKey(deps: AdminDeps, body: Record<string, unknown>): EmuResponse {
  if (typeof body.apiKey !== 'string' || body.apiKey === '') throw bad('apiKey is required');
  const old = deps.ctx.store.get<{ hash: string; accountId: string }>(
    'apikeys',
    hashKey(body.apiKey),
  );
  if (!old) throw new ApiError(404, 'not_found', 'no such API key');
  const apiKey = `emu_${randomBytes(24).toString('hex')}`;
  const hash = hashKey(apiKey);
  deps.ctx.store.transaction(() => {
    deps.ctx.store.put('apikeys', hash, { hash, accountId: old.accountId });
    deps.ctx.store.delete('apikeys', old.hash);
  });
  return json({ apiKey }, 201);
}

function failResource(deps: AdminDeps, body: Record<string, unknown>): EmuResponse {
  if (!deps.fail) throw new ApiError(501, 'internal', 'failing resources is not available');
  return deps.fail(deps.ctx, body);
}

function faultSpec(body: Record<string, unknown>): FaultSpec {
  if (typeof body.path !== 'string' || body.path === '') throw bad('path is required');
  const num = (k: string) => body[k] === undefined || typeof body[k] === 'number';
  if (!['status', 'retryAfter', 'latencyMs', 'rate', 'count'].every(num))
    throw bad('numeric fields must be numbers');
  if (body.rate !== undefined && !((body.rate as number) >= 0 && (body.rate as number) <= 1)) {
    throw bad('rate must be within 0..1');
  }
  const invalid = patternError(body.path);
  if (invalid) throw bad(`path is not a valid pattern: ${invalid}`, 'path');
  return body as unknown as FaultSpec;
}

function bad(message: string, field?: string): ApiError {
  return new ApiError(400, 'invalid_request', message, field ? [{ field, message }] : undefined);
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}
