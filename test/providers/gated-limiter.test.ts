import { describe, expect, it } from 'vitest';
import { fencedApi } from '../../src/controller/engine/fenced-api.js';
import { createApiClient } from '../../src/providers/client/api-client.js';
import { GatedLimiter } from '../../src/providers/client/gated-limiter.js';

describe('a limiter paced from outside (the replicas shared budget)', () => {
  it('passes the gate before every attempt the client sends, and sends nothing while it is shut', async () => {
    const sent: string[] = [];
    let open = false;
    const waiting: (() => void)[] = [];
    const gate = () =>
      new Promise<void>((resolve) => {
        if (open) resolve();
        else waiting.push(resolve);
      });
    const client = createApiClient({
      baseUrl: 'http://platform.test',
      apiKey: 'k',
      limiter: new GatedLimiter({ gate, concurrency: 2 }),
      transport: async ({ path }) => {
        sent.push(path);
        return { status: 200, headers: { 'content-type': 'application/json' }, text: '{}' };
      },
    });
    const get = (i: number) =>
      client.request({ method: 'GET', path: `/r/${i}`, auth: 'infra', operation: `read ${i}` });
    const all = Promise.all([get(1), get(2), get(3)]);
    await new Promise((r) => setTimeout(r, 20));
    expect(sent).toEqual([]);
    open = true;
    for (const w of waiting.splice(0)) w();
    await all;
    expect(sent.sort()).toEqual(['/r/1', '/r/2', '/r/3']);
  });

  it('rejects a request aborted at the gate, unsent', async () => {
    const limiter = new GatedLimiter({
      gate: (signal) =>
        new Promise((_, reject) => signal?.addEventListener('abort', () => reject(signal.reason))),
    });
    const abort = new AbortController();
    let ran = false;
    const request = limiter.add(
      async () => {
        ran = true;
      },
      { signal: abort.signal },
    );
    abort.abort(new Error('stop'));
    await expect(request).rejects.toThrow();
    expect(ran).toBe(false);
  });
});

describe('a write fenced at the moment it leaves (a controller that may lose the lease)', () => {
  it('asks mayStart once the limiter gives the attempt its turn: false sends nothing', async () => {
    const sent: string[] = [];
    let open = false;
    const waiting: (() => void)[] = [];
    const client = createApiClient({
      baseUrl: 'http://platform.test',
      apiKey: 'k',
      limiter: new GatedLimiter({
        gate: () =>
          new Promise<void>((resolve) => {
            if (open) resolve();
            else waiting.push(resolve);
          }),
      }),
      transport: async ({ path }) => {
        sent.push(path);
        return { status: 200, headers: { 'content-type': 'application/json' }, text: '{}' };
      },
    });
    let leads = true;
    const fenced = fencedApi(client, () => leads);
    const write = fenced.request({
      method: 'PUT',
      path: '/w/1',
      auth: 'infra',
      operation: 'updating w 1',
    });
    // accepted when asked, then held by the rate limit while the lease's deadline passes
    leads = false;
    open = true;
    for (const w of waiting.splice(0)) w();
    await expect(write).rejects.toMatchObject({ code: 'locked' });
    await expect(
      fenced.request({ method: 'DELETE', path: '/w/2', auth: 'infra', operation: 'deleting w 2' }),
    ).rejects.toMatchObject({ code: 'locked' });
    // reads go on: a replica that stands by may still look
    await fenced.request({ method: 'GET', path: '/w/3', auth: 'infra', operation: 'reading w 3' });
    expect(sent).toEqual(['/w/3']);
  });
});
