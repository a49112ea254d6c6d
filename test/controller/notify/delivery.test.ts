import { describe, expect, it } from 'vitest';
import {
  type DeliveryOutcome,
  DeliveryQueue,
  type SendOutcome,
  TokenBucket,
} from '../../../src/controller/notify/delivery.js';

import { fakeClock } from '../../providers/helpers.js';

/** A queue on a fake clock whose sends answer from `answers` (then ok), recording everything. */
function harness(answers: SendOutcome[] = [], options = {}) {
  const clock = fakeClock();
  const sent: { item: string; at: number }[] = [];
  const fates: [DeliveryOutcome, string, number][] = [];
  const queue = new DeliveryQueue<string>(
    {
      clock,
      send: async (item) => {
        sent.push({ item, at: clock.now() });
        return answers.shift() ?? { ok: true };
      },
      onOutcome: (o, item, d) => fates.push([o, item, d.attempts]),
    },
    options,
  );
  return { clock, sent, fates, queue };
}

const err = (retryable: boolean, reason: string): SendOutcome => ({ ok: false, retryable, reason });

describe('token bucket', () => {
  it('lets a burst through, then one per interval, refilling with time', () => {
    const b = new TokenBucket({ burst: 2, perMinute: 60 });
    expect([b.take(0), b.take(0), b.take(0), b.take(0)]).toEqual([0, 0, 1000, 2000]);
    // after 10 s the debt is paid and the bucket is full again
    expect([b.take(10_000), b.take(10_000), b.take(10_000)]).toEqual([0, 0, 1000]);
  });

  it('refuses nonsense', () => {
    expect(() => new TokenBucket({ burst: 0, perMinute: 1 })).toThrow(/burst/);
    expect(() => new TokenBucket({ burst: 1, perMinute: 0 })).toThrow(/perMinute/);
  });
});

describe('delivery queue', () => {
  it('sends in order, rate-limited after the burst', async () => {
    const h = harness([], { burst: 2, perMinute: 30 });
    for (const x of ['a', 'b', 'c', 'd']) h.queue.push(x);
    await h.queue.idle();
    expect(h.sent.map((s) => s.item)).toEqual(['a', 'b', 'c', 'd']);
    const start = h.sent[0]!.at;
    expect(h.sent.map((s) => s.at - start)).toEqual([0, 0, 2000, 4000]);
    expect(h.fates.map((f) => f[0])).toEqual(['sent', 'sent', 'sent', 'sent']);
  });

  it('retries 5xx and network failures with doubling delays, then gives up', async () => {
    const h = harness([err(true, 'HTTP 503'), err(true, 'network')], { burst: 10 });
    h.queue.push('x');
    await h.queue.idle();
    expect(h.clock.sleeps).toEqual([2000, 4000]);
    expect(h.fates).toEqual([['sent', 'x', 3]]);
    const down = harness(Array(10).fill(err(true, 'HTTP 502')), { maxAttempts: 3, burst: 10 });
    down.queue.push('y');
    await down.queue.idle();
    expect(down.sent).toHaveLength(3);
    expect(down.fates).toEqual([['failed', 'y', 3]]);
  });

  it('waits at least the Retry-After a 429 asks for, bounded by the largest backoff', async () => {
    const busy = (retryAfterMs: number): SendOutcome => ({
      ok: false,
      retryable: true,
      reason: 'HTTP 429',
      retryAfterMs,
    });
    // 20 s asked, 2 s and 4 s of backoff due: the receiver's 20 s wins; a short ask loses to 4 s
    const h = harness([busy(20_000), busy(1_000)], { burst: 10 });
    h.queue.push('x');
    await h.queue.idle();
    expect(h.clock.sleeps).toEqual([20_000, 4_000]);
    expect(h.fates).toEqual([['sent', 'x', 3]]);
    // an hour asked is cut to retryMaxMs
    const capped = harness([busy(3_600_000)], { burst: 10, retryMaxMs: 60_000 });
    capped.queue.push('y');
    await capped.queue.idle();
    expect(capped.clock.sleeps).toEqual([60_000]);
  });

  it('never retries a 4xx', async () => {
    const h = harness([err(false, 'HTTP 404')]);
    h.queue.push('x');
    h.queue.push('y');
    await h.queue.idle();
    expect(h.sent.map((s) => s.item)).toEqual(['x', 'y']);
    expect(h.fates).toEqual([
      ['failed', 'x', 1],
      ['sent', 'y', 1],
    ]);
  });

  it('a send that throws counts as a retryable error', async () => {
    const clock = fakeClock();
    let calls = 0;
    const fates: string[] = [];
    const q = new DeliveryQueue<string>({
      clock,
      send: async () => {
        calls++;
        if (calls === 1) throw new Error('boom');
        return { ok: true };
      },
      onOutcome: (o) => fates.push(o),
    });
    q.push('x');
    await q.idle();
    expect(fates).toEqual(['sent']);
    expect(calls).toBe(2);
  });

  it('bounds memory: beyond maxQueued the oldest waiting item is dropped', async () => {
    const clock = fakeClock();
    let release: () => void = () => {};
    const gate = new Promise<void>((r) => {
      release = r;
    });
    const fates: [DeliveryOutcome, string][] = [];
    const q = new DeliveryQueue<string>(
      {
        clock,
        send: async () => {
          await gate;
          return { ok: true };
        },
        onOutcome: (o, item) => fates.push([o, item]),
      },
      { maxQueued: 2, burst: 100 },
    );
    for (const x of ['a', 'b', 'c', 'd', 'e']) q.push(x);
    // 'a' is being sent; b, c dropped to keep d, e
    expect(q.size).toBe(2);
    release();
    await q.idle();
    expect(fates).toEqual([
      ['dropped', 'b'],
      ['dropped', 'c'],
      ['sent', 'a'],
      ['sent', 'd'],
      ['sent', 'e'],
    ]);
  });

  it('close: waits for the queue to drain up to the grace period, then drops the rest', async () => {
    // a receiver that never answers until aborted, on a clock whose grace sleep is real-ish
    let now = 0;
    let wake: () => void = () => {};
    const clock = {
      now: () => now,
      sleep: (ms: number, signal?: AbortSignal) =>
        new Promise<void>((resolve, reject) => {
          if (signal?.aborted) return reject(signal.reason);
          wake = () => {
            now += ms;
            resolve();
          };
          signal?.addEventListener('abort', () => reject(signal.reason), { once: true });
        }),
    };
    const fates: [DeliveryOutcome, string][] = [];
    const q = new DeliveryQueue<string>({
      clock,
      send: (_item, signal) =>
        new Promise<SendOutcome>((resolve) => {
          signal.addEventListener('abort', () => resolve(err(true, 'aborted')), { once: true });
        }),
      onOutcome: (o, item) => fates.push([o, item]),
    });
    q.push('a');
    q.push('b');
    const closed = q.close(5000);
    q.push('late');
    wake(); // the grace period ends
    await closed;
    expect(fates).toEqual([
      ['dropped', 'late'],
      ['dropped', 'a'],
      ['dropped', 'b'],
    ]);
  });
});
