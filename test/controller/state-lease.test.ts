import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { stateStoreLease } from '../../src/controller/leadership/state-lease.js';
import type { Clock } from '../../src/core/clock.js';
import { openStateStore } from '../../src/state/index.js';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'platctl-lease-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** A clock tests move by hand. */
function manualClock(): Clock & { advance(ms: number): void } {
  let now = 1_700_000_000_000;
  return {
    now: () => now,
    sleep: async () => {},
    advance(ms) {
      now += ms;
    },
  };
}

describe('leader election on the state store lease', () => {
  it('a standby takes over once a crashed leader stops renewing and the lease expires', async () => {
    const clock = manualClock();
    const path = join(root, 'state.db');
    const storeA = openStateStore(path, { clock });
    const storeB = openStateStore(path, { clock });
    try {
      const a = stateStoreLease(storeA, { id: 'ctl-a', pid: 1, host: 'pod-a' }, { ttlMs: 1000 });
      const b = stateStoreLease(storeB, { id: 'ctl-b', pid: 2, host: 'pod-b' }, { ttlMs: 1000 });
      expect(await a.tryAcquire()).toBe(true);
      expect(await b.tryAcquire()).toBe(false);
      expect(await b.holder()).toMatch(/^pid 1 on pod-a/);
      clock.advance(600);
      expect(await a.tryAcquire()).toBe(true); // renewal by re-acquiring
      clock.advance(600);
      expect(await b.tryAcquire()).toBe(false); // renewed 600 ms ago: still a's
      // a crashes: no release, no renewal
      clock.advance(1001);
      expect(await b.tryAcquire()).toBe(true);
      expect(await a.tryAcquire()).toBe(false); // a, if it comes back, stands by
      await b.release();
      expect(await a.tryAcquire()).toBe(true);
    } finally {
      await storeA.close();
      await storeB.close();
    }
  });
});
