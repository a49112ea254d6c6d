import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { ADMIN_KEY, type Harness, startHarness } from './harness.js';

const P = '/auth/v1/projects/';

describe('test controls: faults, journal, clock, reset', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness();
  });
  afterAll(() => h.close());
  beforeEach(async () => {
    await h.call('DELETE', '/_emulator/faults', undefined, { key: null });
  });
  const control = (method: string, path: string, body?: unknown) =>
    h.call(method, path, body, { key: null });

  it('injects a status for a given count, before auth', async () => {
    const added = await control('POST', '/_emulator/faults', {
      path: '/auth/v1/projects/*',
      status: 503,
      count: 2,
    });
    expect(added.status).toBe(201);
    expect(typeof added.body.id).toBe('string');
    expect((await h.call('GET', P, undefined, { key: null })).status).toBe(503);
    expect((await h.call('GET', P)).status).toBe(503);
    expect((await h.call('GET', P)).status).toBe(200);
  });

  it('sends 429 with Retry-After, matching regexes and methods', async () => {
    await control('POST', '/_emulator/faults', {
      path: '^/auth/v1/pro',
      method: 'GET',
      status: 429,
      retryAfter: 7,
    });
    const r = await h.call('GET', P);
    expect(r.status).toBe(429);
    expect(r.headers.get('retry-after')).toBe('7');
    expect(r.body.code).toBe('rate_limited');
    expect((await h.call('POST', '/auth/v1/users/', {})).status).toBe(400);
    expect((await control('DELETE', '/_emulator/faults')).status).toBe(204);
    expect((await h.call('GET', P)).status).toBe(200);
  });

  it('adds latency and drops connections; rate 0 never fires', async () => {
    await control('POST', '/_emulator/faults', {
      path: '/auth/v1/users/**',
      latencyMs: 60,
      count: 1,
    });
    const t0 = Date.now();
    expect((await h.call('GET', '/auth/v1/users/')).status).toBe(200);
    expect(Date.now() - t0).toBeGreaterThanOrEqual(55);
    await control('POST', '/_emulator/faults', { path: P, drop: true, count: 1 });
    await expect(h.call('GET', P)).rejects.toThrow();
    expect((await h.call('GET', P)).status).toBe(200);
    await control('POST', '/_emulator/faults', { path: P, status: 500, rate: 0 });
    expect((await h.call('GET', P)).status).toBe(200);
    expect((await control('POST', '/_emulator/faults', { status: 500 })).status).toBe(400);
    expect((await control('POST', '/_emulator/faults', { path: P, rate: 2 })).status).toBe(400);
  });

  it('journals every API request with the header name used and never the key', async () => {
    const since = (await control('GET', '/_emulator/journal')).body.last as number;
    await h.call('GET', `${P}?limit=1`, undefined, { header: 'X-API-KEY' });
    await h.call('GET', P, undefined, { header: 'X-SERVICE-API-KEYID' });
    await h.call('GET', P, undefined, { key: null });
    await h.call('GET', '/nowhere');
    const journal = await control('GET', `/_emulator/journal?since=${since}`);
    expect(journal.status).toBe(200);
    const entries = journal.body.entries;
    expect(entries).toHaveLength(4);
    expect(entries[0]).toMatchObject({
      method: 'GET',
      path: P,
      query: { limit: '1' },
      status: 200,
      authHeader: 'x-api-key',
    });
    expect(entries[1]).toMatchObject({ status: 200, authHeader: 'x-service-api-keyid' });
    expect(entries[2]).toMatchObject({ status: 401, authHeader: null });
    expect(entries[3]).toMatchObject({ status: 404, path: '/nowhere' });
    expect(Date.parse(entries[0].time)).not.toBeNaN();
    const all = await control('GET', '/_emulator/journal');
    expect(all.text).not.toContain(ADMIN_KEY);
  });

  it('advances the clock and resets state, clock and keys of created users', async () => {
    const before = Date.parse((await control('GET', '/_emulator/clock')).body.now);
    const adv = await control('POST', '/_emulator/clock/advance', { seconds: 3600 });
    expect(Date.parse(adv.body.now) - before).toBeGreaterThanOrEqual(3600_000);
    expect((await control('POST', '/_emulator/clock/advance', { seconds: -1 })).status).toBe(400);
    const u = await h.newUser('reset-me@acme.example');
    expect((await h.call('GET', P, undefined, { key: u.key })).status).toBe(200);
    expect((await control('POST', '/_emulator/reset')).status).toBe(200);
    const after = Date.parse((await control('GET', '/_emulator/clock')).body.now);
    expect(after - before).toBeLessThan(3600_000);
    expect((await h.call('GET', P, undefined, { key: u.key })).status).toBe(401);
    expect((await h.call('GET', '/auth/v1/users/')).body.count).toBe(2); // as seeded
    expect((await control('POST', '/_emulator/users/nobody/apikeys')).status).toBe(404);
  });

  it('delegates POST /_emulator/fail to the paas control', async () => {
    const r = await control('POST', '/_emulator/fail', {
      kind: 'Service',
      project: 'platform',
      name: 'nope',
    });
    expect(r.status).toBe(404);
    expect((await control('POST', '/_emulator/fail', { kind: 'Service' })).status).toBe(400);
  });
});

describe('without --admin', () => {
  it('has no /_emulator/ controls', async () => {
    const h = await startHarness({ admin: false });
    try {
      expect((await h.call('GET', '/_emulator/clock', undefined, { key: null })).status).toBe(404);
      expect((await h.call('POST', '/_emulator/clock/advance', { seconds: 5 })).status).toBe(404);
    } finally {
      await h.close();
    }
  });
});

describe('POST /_emulator/apikeys/rotate', () => {
  it('issues a new key for the same user and retires the old one at once', async () => {
    const h = await startHarness();
    try {
      const control = (body: unknown) =>
        h.call('POST', '/_emulator/apikeys/rotate', body, { key: null });
      const r = await control({ apiKey: ADMIN_KEY });
      expect(r.status).toBe(201);
      const next = r.body.apiKey as string;
      expect(next).not.toBe(ADMIN_KEY);
      expect((await h.call('GET', P, undefined, { key: next })).status).toBe(200);
      expect((await h.call('GET', P, undefined, { key: ADMIN_KEY })).status).toBe(401);
      expect((await control({ apiKey: ADMIN_KEY })).status).toBe(404); // already retired
      expect((await control({})).status).toBe(400);
    } finally {
      await h.close();
    }
  });
});
