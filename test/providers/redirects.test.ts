import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { PlatctlError } from '../../src/core/errors.js';
import { createApiClient } from '../../src/providers/client/api-client.js';

const KEY = 'k-redirect-test-0123456789';
const servers: { close(): void }[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close();
});

/** A loopback server answering `answer`; records what reached it. */
async function serve(answer: (path: string) => { status: number; location?: string }) {
  const seen: { path: string; headers: IncomingHttpHeaders }[] = [];
  const server = createServer((req, res) => {
    seen.push({ path: req.url ?? '', headers: req.headers });
    const a = answer(req.url ?? '');
    res.writeHead(a.status, {
      'content-type': 'application/json',
      ...(a.location ? { location: a.location } : {}),
    });
    res.end('{}');
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  servers.push(server);
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}

describe('api client: redirects', () => {
  it('does not follow a redirect (the key would go along): a clear error, nothing retried', async () => {
    const elsewhere = await serve(() => ({ status: 200 }));
    const platform = await serve(() => ({ status: 302, location: `${elsewhere.url}/stolen` }));
    const api = createApiClient({ baseUrl: platform.url, apiKey: KEY, timeoutMs: 2_000 });
    const sent = api.request({
      method: 'POST',
      path: '/auth/v1/projects/',
      body: { kind: 'Project' },
      auth: 'infra',
      operation: 'creating project p',
    });
    await expect(sent).rejects.toThrow(PlatctlError);
    await expect(sent).rejects.toThrow(/creating project p: the platform answered with a redirect/);
    await expect(sent).rejects.not.toThrow(KEY);
    expect(platform.seen).toHaveLength(1);
    expect(elsewhere.seen).toEqual([]);
  });

  it('refuses every redirect status fetch refused, and answers any other 3xx as a status', async () => {
    for (const status of [301, 303, 307, 308]) {
      const platform = await serve(() => ({ status, location: 'http://127.0.0.1:9/x' }));
      const api = createApiClient({ baseUrl: platform.url, apiKey: KEY, timeoutMs: 2_000 });
      await expect(
        api.request({ method: 'GET', path: '/r', auth: 'infra', operation: `reading ${status}` }),
      ).rejects.toThrow(`reading ${status}: the platform answered with a redirect`);
    }
    const platform = await serve(() => ({ status: 304 }));
    const api = createApiClient({ baseUrl: platform.url, apiKey: KEY, timeoutMs: 2_000 });
    await expect(
      api.request({ method: 'GET', path: '/r', auth: 'infra', operation: 'reading' }),
    ).rejects.toMatchObject({ code: 'api', status: 304 });
  });
});
