import { describe, expect, it } from 'vitest';
import type { Clock } from '../../src/core/clock.js';
import { createApiClient, type Transport } from '../../src/providers/client/api-client.js';
import { createRateLimiter } from '../../src/providers/client/rate-limiter.js';
import { API_KEY, BASE, fakeClock } from './helpers.js';

/** A transport that answers after `ms` and records how many calls were in flight, and when. */
function slowTransport(ms: number, status = 200) {
  const stats = { inFlight: 0, max: 0, starts: [] as number[] };
  const transport: Transport = async () => {
    stats.inFlight++;
    stats.max = Math.max(stats.max, stats.inFlight);
    stats.starts.push(performance.now());
    await new Promise((r) => setTimeout(r, ms));
    stats.inFlight--;
    return { status, headers: { 'content-type': 'application/json' }, text: '{}' };
  };
  return { transport, stats };
}

const get = (i: number) => ({
  method: 'GET' as const,
  path: `/auth/v1/users/${i}/`,
  auth: 'identity' as const,
  operation: `reading ${i}`,
});

describe('the shared rate limiter', () => {
  it('sends a request of a higher priority before the ones already waiting (a list page)', async () => {
    const sent: string[] = [];
    const transport: Transport = async ({ path }) => {
      sent.push(path);
      await new Promise((r) => setTimeout(r, 5));
      return { status: 200, headers: { 'content-type': 'application/json' }, text: '{}' };
    };
    const api = createApiClient({ baseUrl: BASE, apiKey: API_KEY, concurrency: 1, transport });
    const reads = Array.from({ length: 5 }, (_, i) => api.request(get(i)));
    const page = api.request({ ...get(99), priority: 1 });
    await Promise.all([...reads, page]);
    // the first read had the one place already; the page goes next, before reads 1 to 4
    expect(sent.map((p) => p.split('/')[4])).toEqual(['0', '99', '1', '2', '3', '4']);
  });

  it('never has more requests in flight than the concurrency, whoever sends them', async () => {
    const { transport, stats } = slowTransport(10);
    const api = createApiClient({ baseUrl: BASE, apiKey: API_KEY, concurrency: 3, transport });
    await Promise.all(Array.from({ length: 20 }, (_, i) => api.request(get(i))));
    expect(stats.max).toBe(3);
    expect(stats.starts).toHaveLength(20);
  });

  it('counts every retry attempt against the same limit', async () => {
    const { transport, stats } = slowTransport(5, 503);
    const api = createApiClient({
      baseUrl: BASE,
      apiKey: API_KEY,
      concurrency: 2,
      maxAttempts: 3,
      transport,
      clock: fakeClock(),
    });
    const results = await Promise.allSettled(
      Array.from({ length: 6 }, (_, i) => api.request(get(i))),
    );
    expect(results.every((r) => r.status === 'rejected')).toBe(true);
    expect(stats.starts).toHaveLength(18);
    expect(stats.max).toBeLessThanOrEqual(2);
  });

  it('is shared between clients when passed in, so the total stays within the cap', async () => {
    const { transport, stats } = slowTransport(10);
    const limiter = createRateLimiter({ concurrency: 2 });
    const a = createApiClient({ baseUrl: BASE, apiKey: API_KEY, transport, limiter });
    const b = createApiClient({ baseUrl: BASE, apiKey: API_KEY, transport, limiter });
    await Promise.all(Array.from({ length: 10 }, (_, i) => (i % 2 ? a : b).request(get(i))));
    expect(stats.max).toBe(2);
  });

  /** A fake clock whose sleep first lets what is already due reach the transport, then moves on. */
  function steppingClock(): Clock {
    const base = fakeClock();
    return {
      now: base.now,
      sleep: async (ms, signal) => {
        await new Promise((r) => setImmediate(r));
        await base.sleep(ms, signal);
      },
    };
  }

  /** A client at `rps` whose transport stamps each request's start on `clock`. */
  function pacedClient(rps: number, clock: Clock) {
    const starts: number[] = [];
    const transport: Transport = async () => {
      starts.push(clock.now());
      return { status: 200, headers: { 'content-type': 'application/json' }, text: '{}' };
    };
    const api = createApiClient({
      baseUrl: BASE,
      apiKey: API_KEY,
      rps,
      concurrency: 50,
      transport,
      clock,
    });
    return { api, starts };
  }

  it('keeps any rolling second within rps', async () => {
    // On the client's own clock, stamped where the transport receives each request: no timer of
    // a busy test machine decides the outcome (on real timers it once counted 21).
    const clock = steppingClock();
    const { api, starts } = pacedClient(20, clock);
    await Promise.all(Array.from({ length: 30 }, (_, i) => api.request(get(i))));
    expect(starts).toHaveLength(30);
    for (const t of starts) {
      expect(starts.filter((s) => s >= t && s < t + 1000).length).toBeLessThanOrEqual(20);
    }
    expect(starts.at(-1)! - starts[0]!).toBeGreaterThanOrEqual(1000);
  });

  it('spreads requests over the second instead of sending a whole second of them at once', async () => {
    // A burst of rps requests at the top of each window keeps every rolling second at rps when
    // counted where they leave, but a few milliseconds of network or event-loop jitter carries the
    // end of one burst into the next window where the platform counts them: 44 at --rps 40.
    // On the fake clock: on real timers at a load of 20 a late timer's catch-up decided it.
    const clock = steppingClock();
    const { api, starts } = pacedClient(20, clock);
    await Promise.all(Array.from({ length: 12 }, (_, i) => api.request(get(i))));
    expect(starts).toHaveLength(12);
    // 1000 / 20 = 50 ms apart
    for (let i = 1; i < starts.length; i++) {
      expect(starts[i]! - starts[i - 1]!, `gap before request ${i}`).toBeGreaterThanOrEqual(50);
    }
  });

  it('an abort while queued sends nothing and says it was interrupted', async () => {
    const { transport, stats } = slowTransport(30);
    const api = createApiClient({ baseUrl: BASE, apiKey: API_KEY, concurrency: 1, transport });
    const controller = new AbortController();
    const first = api.request(get(1));
    const second = api.request({ ...get(2), signal: controller.signal });
    controller.abort();
    await expect(second).rejects.toMatchObject({
      code: 'aborted',
      message: 'reading 2: interrupted',
    });
    await first;
    expect(stats.starts).toHaveLength(1);
  });

  it('rejects nonsense settings with the bad value', () => {
    expect(() => createRateLimiter({ concurrency: 0 })).toThrow(
      'concurrency must be a positive integer, got 0',
    );
    expect(() => createRateLimiter({ rps: -1 })).toThrow('rps must be a positive number, got -1');
  });
});
