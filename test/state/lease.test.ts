import { spawnSync } from 'node:child_process';
import { hostname } from 'node:os';
import { describe, expect, it } from 'vitest';
import { openStateStore } from '../../src/state/index.js';
import { placesOf, storeFactories } from './factories.js';

const holder = (id: string, pid: number) => ({ id, pid, host: 'build-7' });

describe.each(storeFactories)('run lease contract: $name', (factory) => {
  const places = placesOf(factory);

  async function twoStores() {
    const place = await places.place();
    return { a: await place.open(), b: await place.open() };
  }

  it('fails a second writer with a message naming the holder', async () => {
    const { a, b } = await twoStores();
    await a.acquire({ holder: holder('one', 4242), heartbeat: false });
    await expect(b.acquire({ holder: holder('two', 99), heartbeat: false })).rejects.toMatchObject({
      code: 'locked',
      message: expect.stringMatching(/pid 4242 on build-7 since \d{4}-\d\d-\d\dT/),
    });
    expect(await b.leaseHolder()).toMatchObject({ id: 'one', pid: 4242, host: 'build-7' });
  });

  it('lets the second writer in once the first releases, while it waits', async () => {
    const { a, b } = await twoStores();
    const first = await a.acquire({ holder: holder('one', 1), heartbeat: false });
    const waiting = b.acquire({ holder: holder('two', 2), waitMs: 10_000, heartbeat: false });
    await new Promise((r) => setTimeout(r, 50));
    await first.release();
    const second = await waiting;
    expect((await b.leaseHolder())?.id).toBe('two');
    await second.release();
    expect(await b.leaseHolder()).toBeUndefined();
  });

  it('is re-entrant for the same holder id', async () => {
    const { a } = await twoStores();
    await a.acquire({ holder: holder('one', 1), heartbeat: false });
    await expect(a.acquire({ holder: holder('one', 1), heartbeat: false })).resolves.toBeDefined();
  });

  it('gives up waiting when the signal aborts', async () => {
    const { a, b } = await twoStores();
    await a.acquire({ holder: holder('one', 1), heartbeat: false });
    const stop = new AbortController();
    const waiting = b.acquire({
      holder: holder('two', 2),
      waitMs: 60_000,
      heartbeat: false,
      signal: stop.signal,
    });
    setTimeout(() => stop.abort(), 50);
    await expect(waiting).rejects.toBeDefined();
    expect((await b.leaseHolder())?.id).toBe('one');
  });

  it('is broken by unlock with the holder id, and only with it', async () => {
    const { a, b } = await twoStores();
    await a.acquire({ holder: holder('one', 4242), heartbeat: false });
    expect(await b.unlock('two')).toBeUndefined();
    expect((await b.leaseHolder())?.id).toBe('one');
    expect(await b.unlock('one')).toMatchObject({ id: 'one', pid: 4242, host: 'build-7' });
    const taken = await b.acquire({ holder: holder('two', 2), waitMs: 5000, heartbeat: false });
    expect((await b.leaseHolder())?.id).toBe('two');
    await taken.release();
  });
});

/** The pid of a process of this host that has exited. */
function deadPid(): number {
  const child = spawnSync(process.execPath, ['-e', '']);
  return child.pid!;
}

describe('a lease held by a process that died on this host (SQLite)', () => {
  it('is taken over at once; a live local or a remote holder still blocks', async () => {
    const s = openStateStore(':memory:');
    const local = (id: string, pid: number) => ({ id, pid, host: hostname() });
    await s.acquire({ holder: local('crashed', deadPid()), heartbeat: false });
    const mine = await s.acquire({ holder: local('next', process.pid), heartbeat: false });
    expect((await s.leaseHolder())?.id).toBe('next');
    await mine.release();
    // this very process is alive: its lease stands
    await s.acquire({ holder: local('alive', process.pid), heartbeat: false });
    await expect(
      s.acquire({ holder: local('other', process.pid), heartbeat: false }),
    ).rejects.toMatchObject({
      code: 'locked',
      message: expect.stringContaining('state unlock alive'),
    });
    await s.unlock('alive');
    // a dead pid on another host proves nothing
    await s.acquire({
      holder: { id: 'remote', pid: deadPid(), host: 'elsewhere' },
      heartbeat: false,
    });
    await expect(
      s.acquire({ holder: local('other', process.pid), heartbeat: false }),
    ).rejects.toMatchObject({ code: 'locked' });
    await s.close();
  });
});
