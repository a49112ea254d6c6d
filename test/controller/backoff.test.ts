import { describe, expect, it } from 'vitest';
import { BackoffTracker, backoffDelay } from '../../src/controller/loop/backoff.js';

describe('backoffDelay', () => {
  it('doubles from the base and stops at the cap', () => {
    const o = { baseMs: 100, maxMs: 1000 };
    expect([0, 1, 2, 3, 4, 5, 6].map((n) => backoffDelay(n, o))).toEqual([
      0, 100, 200, 400, 800, 1000, 1000,
    ]);
  });

  it('never overflows after a very long outage', () => {
    expect(backoffDelay(10_000, { baseMs: 1, maxMs: 60_000 })).toBe(60_000);
  });
});

describe('BackoffTracker', () => {
  it('keeps failures per key, and a success forgets them', () => {
    const b = new BackoffTracker({ baseMs: 10, maxMs: 100 });
    expect(b.fail('Workspace/p/a', 0)).toBe(10);
    expect(b.fail('Workspace/p/a', 0)).toBe(20);
    expect(b.fail('Workspace/p/b', 0)).toBe(10);
    expect(b.remaining('Workspace/p/a', 5)).toBe(15);
    expect(b.waiting(5).sort()).toEqual(['Workspace/p/a', 'Workspace/p/b']);
    expect(b.waiting(15)).toEqual(['Workspace/p/a']);
    b.succeed('Workspace/p/a');
    expect(b.failures('Workspace/p/a')).toBe(0);
    expect(b.remaining('Workspace/p/a', 5)).toBe(0);
  });

  it('rejects nonsense options with the bad values in the message', () => {
    expect(() => new BackoffTracker({ baseMs: 0, maxMs: 10 })).toThrow(/baseMs=0/);
    expect(() => new BackoffTracker({ baseMs: 10, maxMs: 5 })).toThrow(/maxMs=5/);
  });
});
