import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openStateStore } from '../../src/state/index.js';
import type { StateStore } from '../../src/state/types.js';
import { fakeClock } from '../reconcile/helpers.js';

const dirs: string[] = [];
const stores: StateStore[] = [];
afterEach(() => {
  for (const s of stores.splice(0)) s.close();
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

function twoStores() {
  const dir = mkdtempSync(join(tmpdir(), 'platctl-lease-'));
  dirs.push(dir);
  const clock = fakeClock(Date.UTC(2026, 0, 1));
  const a = openStateStore(join(dir, 'state.db'), { clock });
  const b = openStateStore(join(dir, 'state.db'), { clock });
  stores.push(a, b);
  return { a, b, clock };
}

const holder = (id: string, pid: number) => ({ id, pid, host: 'build-7' });

describe('run lease', () => {
  it('fails a second writer with a message naming the holder', async () => {
    const { a, b } = twoStores();
    await a.acquire({ holder: holder('one', 4242), heartbeat: false });
    await expect(b.acquire({ holder: holder('two', 99), heartbeat: false })).rejects.toMatchObject({
      code: 'locked',
      message: expect.stringContaining('pid 4242 on build-7 since 2026-01-01T00:00:00.000Z'),
    });
  });

  it('lets the second writer in once the first releases, while it waits', async () => {
    const { a, b, clock } = twoStores();
    const first = await a.acquire({ holder: holder('one', 1), heartbeat: false });
    const origSleep = clock.sleep;
    clock.sleep = async (ms) => {
      first.release();
      return origSleep(ms);
    };
    const second = await b.acquire({ holder: holder('two', 2), waitMs: 10_000, heartbeat: false });
    expect(b.leaseHolder()?.id).toBe('two');
    second.release();
    expect(b.leaseHolder()).toBeUndefined();
  });

  it('expires without heartbeat, so a standby takes over; renew keeps it', async () => {
    const { a, b, clock } = twoStores();
    const first = await a.acquire({ holder: holder('one', 1), ttlMs: 1000, heartbeat: false });
    clock.advance(900);
    first.renew();
    clock.advance(900);
    await expect(b.acquire({ holder: holder('two', 2), heartbeat: false })).rejects.toThrow(
      /locked/,
    );
    clock.advance(200);
    await b.acquire({ holder: holder('two', 2), heartbeat: false });
    expect(() => first.renew()).toThrow(/lost/);
  });

  it('is re-entrant for the same holder id', async () => {
    const { a } = twoStores();
    await a.acquire({ holder: holder('one', 1), heartbeat: false });
    await expect(a.acquire({ holder: holder('one', 1), heartbeat: false })).resolves.toBeDefined();
  });
});
