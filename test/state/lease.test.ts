import { describe, expect, it } from 'vitest';
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
});
