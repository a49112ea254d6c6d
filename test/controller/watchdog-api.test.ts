import { describe, expect, it } from 'vitest';
import { beatingApi } from '../../src/controller/engine/beating-api.js';
import { Heartbeat } from '../../src/controller/loop/heartbeat.js';
import type { ApiRequest } from '../../src/model/api.js';
import { createApiClient, type Transport } from '../../src/providers/client/api-client.js';
import { ManualClock, settle } from './helpers/manual-clock.js';

/** A watchdog far tighter than one request's retries (the default is 5 min). */
const THRESHOLD = 60_000;
const list: ApiRequest = {
  method: 'GET',
  path: '/apis/paas.envmgmt.io/v1/projects/ml/workspaces',
  auth: 'paas',
  operation: 'listing workspaces of project ml',
};

/** A client on a manual clock behind the controller's beating wrapper. */
function watched(transport: Transport) {
  const clock = new ManualClock();
  const heartbeat = new Heartbeat({ thresholdMs: THRESHOLD, now: () => clock.now() });
  const client = createApiClient({
    baseUrl: 'http://127.0.0.1:9',
    apiKey: 'k-123',
    clock,
    transport,
    random: () => 0.5,
    // the real attempt timer never fires here: the hung transport below is a request without one
    timeoutMs: 3_600_000,
  });
  return { clock, heartbeat, api: beatingApi(client, (what) => heartbeat.beat(what)) };
}

/** Advances `total` ms in 1 s steps until `done`, recording the watchdog's verdict each step. */
async function watch(clock: ManualClock, hb: Heartbeat, total: number, done: () => boolean) {
  const seen: boolean[] = [];
  for (let t = 0; t < total && !done(); t += 1_000) {
    await clock.advance(1_000);
    seen.push(hb.check().ok);
  }
  return seen;
}

describe('a request in retries beats the watchdog', () => {
  it('keeps the heartbeat fresh through four minutes of slow 503s and Retry-After waits', async () => {
    let attempts = 0;
    let clock!: ManualClock;
    const transport: Transport = async () => {
      attempts++;
      await clock.sleep(29_000); // an answer that takes nearly the attempt timeout
      return { status: 503, headers: { 'retry-after': '30' }, text: '{}' };
    };
    const w = watched(transport);
    clock = w.clock;
    let settled = false;
    const result = w.api.request(list).then(
      () => 'ok',
      (err: Error) => err.message,
    );
    void result.finally(() => {
      settled = true;
    });
    await settle();
    const seen = await watch(clock, w.heartbeat, 600_000, () => settled);
    expect(await result).toMatch(/503|unavailable|after 5 attempts/i);
    expect(attempts).toBe(5);
    // 5 × 29 s answers + 4 × 30 s waits: far past the threshold, never silent past it
    expect(seen.length).toBeGreaterThan(240);
    expect(seen).not.toContain(false);
  });

  it('does not while one attempt hangs without an answer or a timeout', async () => {
    let release!: () => void;
    const transport: Transport = () =>
      new Promise((r) => {
        release = () => r({ status: 200, headers: {}, text: '{}' });
      });
    const w = watched(transport);
    const pending = w.api.request(list);
    await settle();
    const seen = await watch(w.clock, w.heartbeat, THRESHOLD + 5_000, () => false);
    expect(seen.slice(0, 50)).not.toContain(false);
    expect(seen.at(-1)).toBe(false);
    const check = w.heartbeat.check();
    expect(check.ok === false && check.reason).toMatch(/last heartbeat: GET .*attempt 1/);
    release();
    await pending;
  });
});
