import { describe, expect, it } from 'vitest';
import type { RetryEvent } from '../../src/providers/client/api-client.js';
import { backoffDelay, DEFAULT_RETRY, retryAfterMs } from '../../src/providers/client/retry.js';
import { connectionReset, PAAS, testClient, useNock, v1 } from './helpers.js';

useNock();

const path = `${PAAS}/projects/ml/workspaces`;
const list = {
  method: 'GET',
  path,
  auth: 'identity',
  operation: 'listing workspaces of project ml',
} as const;
const create = {
  method: 'POST',
  path,
  body: { metadata: { name: 'dev' } },
  auth: 'identity',
  operation: 'creating workspace ml/dev',
} as const;
const ok = { kind: 'WorkspaceList', metadata: { count: 0 }, items: [] };

describe('retries', () => {
  it('retries a 429 after the Retry-After seconds it asks for', async () => {
    const scope = v1()
      .get(path)
      .reply(429, { code: 'rate_limited' }, { 'Retry-After': '3' })
      .get(path)
      .reply(200, ok);
    const retries: RetryEvent[] = [];
    const api = testClient({ onRetry: (e) => retries.push(e) });
    expect((await api.request(list)).status).toBe(200);
    expect(api.clock.sleeps).toEqual([3000]);
    expect(retries).toMatchObject([
      {
        status: 429,
        attempt: 1,
        delayMs: 3000,
        route: '/apis/paas.envmgmt.io/v1/projects/{}/workspaces',
      },
    ]);
    expect(scope.isDone()).toBe(true);
  });

  it('honours a Retry-After given as an HTTP date', async () => {
    const api = testClient();
    const at = new Date(api.clock.now() + 5_000).toUTCString();
    v1().get(path).reply(429, {}, { 'Retry-After': at }).get(path).reply(200, ok);
    await api.request(list);
    expect(api.clock.sleeps[0]).toBeGreaterThan(4_000);
    expect(api.clock.sleeps[0]).toBeLessThanOrEqual(5_000);
  });

  it('retries 502, 503 and 504 with growing full-jitter backoff', async () => {
    v1().get(path).reply(502).get(path).reply(503).get(path).reply(504).get(path).reply(200, ok);
    const api = testClient({ baseDelayMs: 100 });
    expect((await api.request(list)).status).toBe(200);
    // random() = 0.5: half of 100, 200, 400.
    expect(api.clock.sleeps).toEqual([50, 100, 200]);
  });

  it('retries a dropped connection (ECONNRESET)', async () => {
    const scope = v1().get(path).replyWithError(connectionReset()).get(path).reply(200, ok);
    const events: string[] = [];
    const api = testClient({ onRequest: (e) => events.push(e.failure ?? String(e.status)) });
    expect((await api.request(list)).status).toBe(200);
    expect(events).toEqual(['network', '200']);
    expect(scope.isDone()).toBe(true);
  });

  it('retries a request that timed out', async () => {
    const scope = v1().get(path).delay(500).reply(200, ok).get(path).reply(200, ok);
    const events: string[] = [];
    const api = testClient({
      timeoutMs: 50,
      onRequest: (e) => events.push(e.failure ?? String(e.status)),
    });
    expect((await api.request(list)).status).toBe(200);
    expect(events).toEqual(['timeout', '200']);
    expect(scope.isDone()).toBe(true);
  });

  it.each([400, 401, 403, 404, 409])('does not retry a %i', async (status) => {
    const scope = v1().post(path).reply(status, { code: 'x', message: 'no' });
    const api = testClient();
    await expect(api.request(create)).rejects.toMatchObject({ status });
    expect(api.clock.sleeps).toEqual([]);
    expect(scope.isDone()).toBe(true);
  });

  it('retries a 500 on an idempotent write, and on a create only after its existence check', async () => {
    const update = { ...create, operation: 'updating workspace ml/dev', idempotent: true };
    const sent = v1().post(path).reply(500, {}).post(path).reply(200, {});
    expect((await testClient().request(update)).status).toBe(200);
    expect(sent.isDone()).toBe(true);
    // the first create was done although it answered 500: the check sees it, nothing is resent
    v1().post(path).reply(500, {});
    let checks = 0;
    const res = await testClient().request({ ...create, existsCheck: async () => ++checks > 0 });
    expect(res).toMatchObject({ recovered: true });
    expect(checks).toBe(1);
    // it was not done: sent again
    const again = v1().post(path).reply(500, {}).post(path).reply(200, {});
    await testClient().request({ ...create, existsCheck: async () => false });
    expect(again.isDone()).toBe(true);
  });

  it('retries a 500 a few times for reads, never for a write that may not converge', async () => {
    v1().get(path).times(3).reply(500, { code: 'internal', message: 'boom' });
    const api = testClient();
    await expect(api.request(list)).rejects.toMatchObject({ status: 500 });
    expect(api.clock.sleeps).toHaveLength(DEFAULT_RETRY.maxAttemptsOn500 - 1);
    v1().post(path).reply(500, { code: 'internal', message: 'boom' });
    const api2 = testClient();
    await expect(api2.request(create)).rejects.toThrow('500 creating workspace ml/dev: boom');
    expect(api2.clock.sleeps).toEqual([]);
  });

  it('stops after maxAttempts', async () => {
    v1().get(path).times(4).reply(503);
    const api = testClient({ maxAttempts: 4 });
    await expect(api.request(list)).rejects.toMatchObject({ status: 503 });
    expect(api.clock.sleeps).toHaveLength(3);
  });
});

describe('creates that may have reached the server', () => {
  it('checks for existence before sending again and does not duplicate', async () => {
    const post = v1().post(path).replyWithError(connectionReset());
    let checks = 0;
    const res = await testClient().request({ ...create, existsCheck: async () => ++checks > 0 });
    expect(res).toMatchObject({ recovered: true, status: 200 });
    expect(checks).toBe(1);
    expect(post.isDone()).toBe(true);
  });

  it('sends again when the check finds nothing', async () => {
    const scope = v1().post(path).reply(503).post(path).reply(200, {});
    const res = await testClient().request({ ...create, existsCheck: async () => false });
    expect(res.recovered).toBeUndefined();
    expect(scope.isDone()).toBe(true);
  });

  it('does not check after a 429, which the platform refused outright', async () => {
    v1().post(path).reply(429, {}, { 'Retry-After': '1' }).post(path).reply(200, {});
    let checks = 0;
    await testClient().request({
      ...create,
      existsCheck: async () => {
        checks++;
        return false;
      },
    });
    expect(checks).toBe(0);
  });

  it('takes acceptOnRetry statuses as success only on a re-sent attempt', async () => {
    v1()
      .post(`${path}/x/publish`)
      .replyWithError(connectionReset())
      .post(`${path}/x/publish`)
      .reply(409, {});
    const publish = {
      method: 'POST',
      path: `${path}/x/publish`,
      auth: 'identity',
      operation: 'publishing',
      acceptOnRetry: [409],
    } as const;
    expect((await testClient().request(publish)).status).toBe(409);
    v1().post(`${path}/x/publish`).reply(409, { message: 'already deployed' });
    await expect(testClient().request(publish)).rejects.toThrow('409 publishing: already deployed');
  });
});

describe('retry arithmetic', () => {
  it('caps the backoff and reads Retry-After forms', () => {
    expect(backoffDelay(20, DEFAULT_RETRY, () => 0.999)).toBeLessThan(DEFAULT_RETRY.maxDelayMs);
    expect(retryAfterMs('2', 0, 60_000)).toBe(2000);
    expect(retryAfterMs('999', 0, 60_000)).toBe(60_000);
    expect(retryAfterMs('garbage', 0, 60_000)).toBeUndefined();
    expect(retryAfterMs(undefined, 0, 60_000)).toBeUndefined();
  });
});
