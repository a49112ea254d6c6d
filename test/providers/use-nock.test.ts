import { createServer } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { describe, expect, it } from 'vitest';
import { httpTransport } from '../../src/providers/client/http-transport.js';
import { testClient, useNock, v1 } from './helpers.js';

/**
 * The suites of this directory share a process with others (vitest.config.ts's `shared` project).
 * Their HTTP interceptor replaces node:http's ClientRequest and gives every request an agent of
 * its own, so it must be on only between `useNock`'s hooks: before and after them a keep-alive
 * transport reuses its connection (transport.test.ts counts them).
 */
async function connectionsForThreeRequests(): Promise<number> {
  const connections: Socket[] = [];
  const server = createServer((_, res) => res.end('{}'));
  server.on('connection', (socket: Socket) => connections.push(socket));
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  const send = httpTransport({ baseUrl: `http://127.0.0.1:${port}` });
  try {
    for (let i = 0; i < 3; i++) {
      await send({ method: 'GET', path: `/r/${i}`, headers: {}, timeoutMs: 2_000 });
    }
    return connections.length;
  } finally {
    send.close();
    server.close();
    for (const s of connections) s.destroy();
  }
}

it('importing the helpers intercepts nothing: a keep-alive transport keeps one connection', async () => {
  expect(await connectionsForThreeRequests()).toBe(1);
});

describe('a suite with useNock', () => {
  useNock();

  it('is answered by its scopes', async () => {
    v1().get('/probe').reply(200, { ok: true });
    const api = testClient();
    await expect(
      api.request({ method: 'GET', path: '/probe', auth: 'paas', operation: 'probing' }),
    ).resolves.toMatchObject({ status: 200, body: { ok: true } });
  });
});

it('after a suite with useNock, node:http is as it was: one connection again', async () => {
  expect(await connectionsForThreeRequests()).toBe(1);
});
