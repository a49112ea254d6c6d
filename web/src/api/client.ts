import type { GraphAnswer } from './graph.js';
import type { PowerVerb, ResourceDetail, ResourcePage } from './resources.js';
import type { RunDetail, RunItem } from './runs.js';
import type { Status } from './status.js';
import type { Fleet, UsageDay, UsageItem } from './usage.js';

const TOKEN_KEY = 'platctl.controlToken';

/** The control token of this browser tab (sessionStorage: gone when the tab closes). */
export const token = {
  get: (): string | null => sessionStorage.getItem(TOKEN_KEY),
  set: (value: string): void => sessionStorage.setItem(TOKEN_KEY, value),
  clear: (): void => sessionStorage.removeItem(TOKEN_KEY),
};

/** A control API answer that was not 2xx; `status` 401 means the token is wrong. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
    this.name = 'ApiError';
  }
}

/**
 * Sends one request with the token in `Authorization` (never in the URL); `signal` aborts it
 * (the promise then rejects with the `AbortError`).
 */
async function call<T>(
  method: 'GET' | 'POST',
  path: string,
  body?: unknown,
  signal?: AbortSignal,
): Promise<T> {
  const res = await fetch(path, {
    method,
    headers: {
      authorization: `Bearer ${token.get() ?? ''}`,
      accept: 'application/json',
      ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
    },
    ...(body !== undefined ? { body: JSON.stringify(body) } : {}),
    cache: 'no-store',
    ...(signal ? { signal } : {}),
  });
  const text = await res.text();
  let parsed: unknown;
  try {
    parsed = text ? JSON.parse(text) : undefined;
  } catch {
    parsed = undefined;
  }
  if (!res.ok) {
    const error = (parsed as { error?: unknown } | undefined)?.error;
    throw new ApiError(res.status, typeof error === 'string' ? error : `HTTP ${res.status}`);
  }
  return parsed as T;
}

/** A query string of the parameters given (empty and undefined ones left out). */
function queryString(params: Readonly<Record<string, string | number | undefined>>): string {
  const q = new URLSearchParams();
  for (const [k, v] of Object.entries(params)) if (v !== undefined && v !== '') q.set(k, String(v));
  const s = q.toString();
  return s ? `?${s}` : '';
}

/** The control API routes the page uses. */
export const api = {
  status: () => call<Status>('GET', '/api/v1/status'),
  resource: (key: string) =>
    call<ResourceDetail>('GET', `/api/v1/resources/${encodeURIComponent(key)}`),
  /** One page of the resources matching the filters (the server filters, sorts and pages). */
  resources: (
    params: Readonly<Record<string, string | number | undefined>>,
    signal?: AbortSignal,
  ) => call<ResourcePage>('GET', `/api/v1/resources${queryString(params)}`, undefined, signal),
  graph: (params: Readonly<Record<string, string | number | undefined>>) =>
    call<GraphAnswer>('GET', `/api/v1/graph${queryString(params)}`),
  runs: (limit = 20) => call<{ items: RunItem[] }>('GET', `/api/v1/runs?limit=${limit}`),
  run: (runId: string) => call<RunDetail>('GET', `/api/v1/runs/${encodeURIComponent(runId)}`),
  reconcileResource: (key: string) =>
    call<{ accepted: boolean }>('POST', `/api/v1/resources/${encodeURIComponent(key)}/reconcile`),
  /** Asks the controller to power an instance on or off, or reboot it (where git allows). */
  power: (key: string, action: PowerVerb) =>
    call<{ accepted: boolean }>('POST', `/api/v1/resources/${encodeURIComponent(key)}/power`, {
      action,
    }),
  resetBackoff: (key: string) =>
    call<{ reset: boolean }>('POST', `/api/v1/resources/${encodeURIComponent(key)}/reset-backoff`),
  usage: (range: { from?: string; to?: string } = {}) =>
    call<{ items: UsageItem[]; currency?: string }>('GET', `/api/v1/usage${queryString(range)}`),
  usageDaily: (range: { from?: string; to?: string } = {}) =>
    call<{ days: UsageDay[]; currency?: string }>(
      'GET',
      `/api/v1/usage/daily${queryString(range)}`,
    ),
  fleet: (params: Readonly<Record<string, string | number | undefined>>) =>
    call<Fleet>('GET', `/api/v1/fleet${queryString(params)}`),
  reconcile: () => call<{ accepted: boolean }>('POST', '/api/v1/reconcile', { withSource: true }),
  suspend: () => call<{ suspended: boolean }>('POST', '/api/v1/suspend'),
  resume: () => call<{ suspended: boolean }>('POST', '/api/v1/resume'),
  approveRun: (runId: string) =>
    call<{ approved: boolean }>('POST', `/api/v1/runs/${encodeURIComponent(runId)}/approve`),
  approvePrune: (runId: string) =>
    call<{ approved: boolean }>('POST', `/api/v1/prunes/${encodeURIComponent(runId)}/approve`),
};
