import nock from 'nock';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../src/model/api-errors.js';
import { API_KEY, BASE, connectionReset, PAAS, testClient, useNock, v1, v3 } from './helpers.js';

useNock();

const listWorkspaces = {
  method: 'GET',
  path: `${PAAS}/projects/ml/workspaces`,
  auth: 'identity',
  operation: 'listing workspaces of project ml',
} as const;

describe('api client: requests', () => {
  it('sends the v1/v2 header, JSON body and query, and parses the JSON answer', async () => {
    const scope = v1()
      .post(`${PAAS}/projects/ml/workspaces`, { kind: 'Workspace', metadata: { name: 'dev' } })
      .query({ 'fail-on-exists': 'true' })
      .matchHeader('content-type', 'application/json')
      .reply(200, { kind: 'Workspace' });
    const res = await testClient().request({
      method: 'POST',
      path: `${PAAS}/projects/ml/workspaces`,
      query: { 'fail-on-exists': true, skipped: undefined },
      body: { kind: 'Workspace', metadata: { name: 'dev' } },
      auth: 'identity',
      operation: 'creating workspace ml/dev',
    });
    expect(res).toMatchObject({ status: 200, body: { kind: 'Workspace' } });
    expect(scope.isDone()).toBe(true);
  });

  it('sends X-API-KEY (and not the v1 header) for v3 endpoints', async () => {
    const scope = v3()
      .get('/apis/infra.k8smgmt.io/v3/projects/ml/clusters')
      .reply(200, { items: [] });
    await testClient().request({
      method: 'GET',
      path: '/apis/infra.k8smgmt.io/v3/projects/ml/clusters',
      auth: 'infra',
      operation: 'listing clusters',
    });
    expect(scope.isDone()).toBe(true);
  });

  it('keeps a base URL path prefix', async () => {
    const scope = nock(BASE).get('/prefix/auth/v1/projects/').reply(200, { count: 0, items: [] });
    await testClient({ baseUrl: `${BASE}/prefix/` }).request({
      method: 'GET',
      path: '/auth/v1/projects/',
      auth: 'identity',
      operation: 'listing projects',
    });
    expect(scope.isDone()).toBe(true);
  });

  it('returns accepted non-2xx statuses instead of throwing', async () => {
    v1()
      .get(`${PAAS}/projects/ml/workspaces/dev`)
      .reply(404, { status: 404, code: 'not_found', message: 'no such workspace' });
    const res = await testClient().request({
      method: 'GET',
      path: `${PAAS}/projects/ml/workspaces/dev`,
      auth: 'identity',
      operation: 'reading workspace ml/dev',
      accept: [404],
    });
    expect(res.status).toBe(404);
  });
});

describe('api client: errors', () => {
  it('reads "409 creating workspace ml/dev: already exists"', async () => {
    v1()
      .post(`${PAAS}/projects/ml/workspaces`)
      .reply(409, { status: 409, code: 'already_exists', message: 'already exists' });
    const err = await testClient()
      .request({
        method: 'POST',
        path: `${PAAS}/projects/ml/workspaces`,
        body: {},
        auth: 'identity',
        operation: 'creating workspace ml/dev',
      })
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(ApiError);
    expect((err as ApiError).message).toBe('409 creating workspace ml/dev: already exists');
    expect(err).toMatchObject({
      status: 409,
      apiCode: 'already_exists',
      code: 'api',
      errorClass: 'conflict',
      operation: 'creating workspace ml/dev',
    });
  });

  it('falls back to the code, then the status, and lists validation details', async () => {
    v1()
      .post(`${PAAS}/projects/ml/services`)
      .reply(400, {
        status: 400,
        code: 'invalid_request',
        details: [{ field: 'spec.serviceType', message: 'must be custom' }],
      });
    const err = (await testClient()
      .request({
        method: 'POST',
        path: `${PAAS}/projects/ml/services`,
        body: {},
        auth: 'identity',
        operation: 'creating VPC service ml/vpc',
      })
      .catch((e: unknown) => e)) as Error;
    expect(err.message).toBe(
      '400 creating VPC service ml/vpc: invalid request (spec.serviceType: must be custom)',
    );
  });

  it('never shows the API key, even when the platform echoes it', async () => {
    v1()
      .get('/auth/v1/users/')
      .reply(401, {
        status: 401,
        code: 'unauthorized',
        message: `unknown key ${API_KEY}`,
        details: [{ field: 'header', message: `got ${API_KEY}` }],
      });
    v1()
      .get('/auth/v1/projects/')
      .reply(403, `forbidden for ${API_KEY}`, { 'content-type': 'text/plain' });
    const api = testClient();
    for (const path of ['/auth/v1/users/', '/auth/v1/projects/']) {
      const err = (await api
        .request({ method: 'GET', path, auth: 'identity', operation: 'listing' })
        .catch((e: unknown) => e)) as Error;
      expect(err).toBeInstanceOf(ApiError);
      expect(err.message).not.toContain(API_KEY);
      expect(JSON.stringify(err)).not.toContain(API_KEY);
      expect(String(err.stack)).not.toContain(API_KEY);
    }
  });

  it('scrubs request-specific secrets (a password in the body) from errors', async () => {
    v1()
      .post('/auth/v1/users/')
      .reply(400, { code: 'invalid_request', message: 'password Hunter2!! is too weak' });
    const err = (await testClient()
      .request({
        method: 'POST',
        path: '/auth/v1/users/',
        body: {},
        auth: 'identity',
        operation: 'creating user a@b',
        secrets: ['Hunter2!!'],
      })
      .catch((e: unknown) => e)) as Error;
    expect(err.message).not.toContain('Hunter2!!');
  });

  it('rejects a missing key and a bad base URL as configuration errors', () => {
    expect(() => testClient({ apiKey: '' })).toThrow(/no API key/);
    expect(() => testClient({ baseUrl: 'ftp://x' })).toThrow(/http or https/);
  });

  it('refuses credentials in the base URL without printing them', () => {
    for (const baseUrl of [
      'https://ops:Hunter2!!@console.example.com',
      'ftp://ops:Hunter2!!@console.example.com',
      'https://ops:Hunter2!!@console example.com',
    ]) {
      let err: unknown;
      try {
        testClient({ baseUrl });
      } catch (e) {
        err = e;
      }
      expect(err, baseUrl).toMatchObject({ code: 'config' });
      expect((err as Error).message).not.toContain('Hunter2');
    }
    expect(() => testClient({ baseUrl: 'https://ops:Hunter2!!@console.example.com' })).toThrow(
      'base URL must not hold credentials (the API key is sent as a header): https://console.example.com/',
    );
  });

  it('wraps a dropped connection, after its retries, as a network error', async () => {
    v1().get(`${PAAS}/projects/ml/workspaces`).times(3).replyWithError(connectionReset());
    const api = testClient({ maxAttempts: 3 });
    const err = (await api.request(listWorkspaces).catch((e: unknown) => e)) as Error & {
      code: string;
    };
    expect(err.code).toBe('network');
    expect(err.message).toMatch(
      /listing workspaces of project ml: connection to the platform at https?:\/\/\S+ failed \(ECONNRESET\) \(after 3 attempts\)/,
    );
    expect(api.clock.sleeps).toHaveLength(2);
  });
});
