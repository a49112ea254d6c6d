import nock from 'nock';
import { afterAll, afterEach, beforeAll } from 'vitest';
import type { Clock } from '../../src/core/clock.js';
import type { ApiClient } from '../../src/model/api.js';
import type { ProviderPorts } from '../../src/model/provider.js';
import { type ApiClientOptions, createApiClient } from '../../src/providers/client/api-client.js';

/** A platform address that only nock answers (real connections are refused). */
export const BASE = 'http://platform.test';
export const API_KEY = 'k3y-SUPER-secret-0123456789';
export const PAAS = '/apis/paas.envmgmt.io/v1';
export const INFRA = '/apis/infra.k8smgmt.io/v3';

// nock replaces node:http's ClientRequest when it is imported, and gives every request an agent of
// its own (no keep-alive). These suites share a process with others (vitest.config.ts's `shared`
// project), so it is on only between useNock's hooks: off at import, off again after the suite.
nock.restore();

/**
 * Turns the interceptor on for the suite (or `describe`) it is called in, blocks every real
 * connection but loopback, and turns it off after: node:http is left as the suite found it.
 */
export function useNock(): void {
  beforeAll(() => {
    if (!nock.isActive()) nock.activate();
    nock.disableNetConnect();
    nock.enableNetConnect(/^(127\.0\.0\.1|localhost)(:\d+)?$/);
  });
  afterEach(() => {
    nock.cleanAll();
  });
  afterAll(() => {
    nock.cleanAll();
    nock.enableNetConnect();
    nock.restore();
  });
}

/**
 * A dropped connection for nock's `replyWithError`. It must be an Error: nock hands a plain object
 * (`{ code: 'ECONNRESET' }`) to fetch, but on node:http its interceptor drops it and the request
 * hangs until its timeout.
 */
export function connectionReset(): Error {
  return Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
}

/** A clock whose sleeps resolve at once, advance time and are recorded. */
export function fakeClock(start = 1_700_000_000_000): Clock & { sleeps: number[] } {
  let now = start;
  const sleeps: number[] = [];
  return {
    sleeps,
    now: () => now,
    sleep: async (ms, signal) => {
      if (signal?.aborted) throw signal.reason;
      sleeps.push(ms);
      now += ms;
    },
  };
}

/**
 * A client against {@link BASE} with a fake clock and no jitter surprises (random = 0.5). It
 * speaks the spec's dialect whatever `PLATCTL_DIALECT` says, as the nock scopes below ({@link v1},
 * {@link v3}) and the paths these suites intercept do; the other dialect's requests are
 * test/e2e/request-shapes.test.ts, run on both (`DIALECT_SUITES`).
 */
export function testClient(
  options: Partial<ApiClientOptions> = {},
): ApiClient & { clock: ReturnType<typeof fakeClock> } {
  const clock = fakeClock();
  const api = createApiClient({
    baseUrl: BASE,
    apiKey: API_KEY,
    clock,
    random: () => 0.5,
    timeoutMs: 2_000,
    dialect: 'spec',
    ...options,
  });
  return Object.assign(api, { clock });
}

/** Ports around a test client; progress lines are collected. */
export function testPorts(
  api: ApiClient & { clock?: Clock },
  overrides: Partial<ProviderPorts> = {},
): ProviderPorts & { lines: string[] } {
  const lines: string[] = [];
  return {
    api,
    clock: api.clock ?? fakeClock(),
    signal: new AbortController().signal,
    progress: (m) => lines.push(m),
    resolveSecret: async () => 'Pa55word!',
    projectId: async (name) => `id-${name}`,
    wait: { pollMs: 1_000, timeoutMs: 10_000 },
    lines,
    ...overrides,
  };
}

/** Nock scope on the test platform that requires the v1/v2 key header. */
export function v1() {
  return nock(BASE, { reqheaders: { 'x-service-api-keyid': API_KEY } }).matchHeader(
    'x-api-key',
    (v) => v === undefined,
  );
}

/** Nock scope on the test platform that requires the v3 key header. */
export function v3() {
  return nock(BASE, { reqheaders: { 'x-api-key': API_KEY } }).matchHeader(
    'x-service-api-keyid',
    (v) => v === undefined,
  );
}
