import {
  createServer as createHttpServer,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo, Server, Socket } from 'node:net';
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib';
import { afterEach, describe, expect, it } from 'vitest';
import { createApiClient } from '../../src/providers/client/api-client.js';
import { httpTransport } from '../../src/providers/client/http-transport.js';
import { AttemptTimeout, TransportError } from '../../src/providers/client/transport.js';

// A throwaway self-signed certificate for 127.0.0.1, only ever served on loopback by this test.
const TLS = {
  key: `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgvP5kfnbHhsBO/rMY
y2cf3mHdCr0u70OSv7zGLpcUFXihRANCAARYGdjlkPCVDnMk9h7d6FOSw2vZbPz9
TTqDUbu4wgwI3r1RZrE08Vnj3V/aEskZXMZJCK/7xeVNsk9hxyss8yCM
-----END PRIVATE KEY-----`,
  cert: `-----BEGIN CERTIFICATE-----
MIIBkDCCATagAwIBAgIUBpmw7RfVK4sJ70Kr7e4nnVaaq8YwCgYIKoZIzj0EAwIw
FDESMBAGA1UEAwwJMTI3LjAuMC4xMCAXDTI2MTEyNDIwMDkzNVoYDzIxMjYxMDMx
MjAwOTM1WjAUMRIwEAYDVQQDDAkxMjcuMC4wLjEwWTATBgcqhkjOPQIBBggqhkjO
PQMBBwNCAARYGdjlkPCVDnMk9h7d6FOSw2vZbPz9TTqDUbu4wgwI3r1RZrE08Vnj
3V/aEskZXMZJCK/7xeVNsk9hxyss8yCMo2QwYjAdBgNVHQ4EFgQUxNMV2TSR9mqA
nzKmURIW3BmXV6cwHwYDVR0jBBgwFoAUxNMV2TSR9mqAnzKmURIW3BmXV6cwDwYD
VR0TAQH/BAUwAwEB/zAPBgNVHREECDAGhwR/AAABMAoGCCqGSM49BAMCA0gAMEUC
IQDdILH6P7EGTuGd0hWZJRjQZNqmGaQxuACyhWcPrLoxpgIgdapm5IdEzZqV7Wy7
z/1ikKTmOQbKhnRrnsbWtQnFP0Q=
-----END CERTIFICATE-----`,
};

const cleanup: (() => void)[] = [];
afterEach(() => {
  for (const c of cleanup.splice(0)) c();
});

interface Seen {
  readonly method: string;
  readonly url: string;
  readonly headers: IncomingMessage['headers'];
  readonly body: string;
}

/** A loopback server; records requests, counts connections and their closes. */
async function serve(
  answer: (req: IncomingMessage, res: ServerResponse) => void,
  tls = false,
): Promise<{ url: string; seen: Seen[]; connections: Socket[]; closed: () => number }> {
  const seen: Seen[] = [];
  const connections: Socket[] = [];
  let closed = 0;
  const handler = (req: IncomingMessage, res: ServerResponse) => {
    let body = '';
    req.on('data', (c: Buffer) => {
      body += c.toString();
    });
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', headers: req.headers, body });
      answer(req, res);
    });
  };
  const server: Server = tls ? createHttpsServer(TLS, handler) : createHttpServer(handler);
  server.on(tls ? 'secureConnection' : 'connection', (socket: Socket) => {
    connections.push(socket);
    socket.on('close', () => closed++);
  });
  server.on('tlsClientError', () => {});
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  cleanup.push(() => {
    server.close();
    for (const s of connections) s.destroy();
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `${tls ? 'https' : 'http'}://127.0.0.1:${port}`,
    seen,
    connections,
    closed: () => closed,
  };
}

function transportTo(url: string) {
  const t = httpTransport({ baseUrl: url, maxSockets: 4 });
  cleanup.push(() => t.close());
  return t;
}

const tick = (ms: number) => new Promise((r) => setTimeout(r, ms));

describe('the node:http transport', () => {
  it('sends method, target, headers and a UTF-8 body; answers status, lower-cased headers, text', async () => {
    const s = await serve((_, res) => {
      res.writeHead(201, { 'Content-Type': 'application/json', 'X-Thing': 'a' });
      res.end('{"ok":"é"}');
    });
    const res = await transportTo(s.url)({
      method: 'POST',
      path: '/p/a?x=1',
      headers: { 'X-API-KEY': 'k', 'content-type': 'application/json' },
      body: '{"name":"é"}',
      timeoutMs: 2_000,
    });
    expect(res).toEqual({
      status: 201,
      headers: expect.objectContaining({ 'content-type': 'application/json', 'x-thing': 'a' }),
      text: '{"ok":"é"}',
    });
    expect(s.seen).toEqual([
      expect.objectContaining({ method: 'POST', url: '/p/a?x=1', body: '{"name":"é"}' }),
    ]);
    expect(s.seen[0]!.headers).toMatchObject({ 'x-api-key': 'k', 'content-length': '13' });
  });

  it('accepts compressed answers and decodes them; names itself', async () => {
    const page = JSON.stringify({
      items: Array.from({ length: 200 }, (_, i) => ({ name: `w-${i}` })),
    });
    const encoders: Record<string, (b: Buffer) => Buffer> = {
      gzip: gzipSync,
      deflate: deflateSync,
      br: brotliCompressSync,
      identity: (b) => b,
    };
    const s = await serve((req, res) => {
      const encoding = String(req.url).slice(1);
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': encoding });
      res.end(encoders[encoding]!(Buffer.from(page)));
    });
    const send = transportTo(s.url);
    for (const encoding of Object.keys(encoders)) {
      const res = await send({
        method: 'GET',
        path: `/${encoding}`,
        headers: {},
        timeoutMs: 2_000,
      });
      expect(res.text, encoding).toBe(page);
    }
    expect(s.seen[0]!.headers['accept-encoding']).toBe('gzip, deflate, br');
    expect(s.seen[0]!.headers['user-agent']).toMatch(/^platctl /);
  });

  it('fails an answer it cannot decode as a network error', async () => {
    const s = await serve((_, res) => {
      res.writeHead(200, { 'content-encoding': 'gzip' });
      res.end('not gzip at all');
    });
    const err = await transportTo(s.url)({
      method: 'GET',
      path: '/',
      headers: {},
      timeoutMs: 2_000,
    }).catch((e: unknown) => e);
    expect(err).toBeInstanceOf(TransportError);
    expect((err as TransportError).code).toBe('Z_DATA_ERROR');
  });

  it('keeps the connection alive between requests', async () => {
    const s = await serve((_, res) => res.end('{}'));
    const send = transportTo(s.url);
    for (let i = 0; i < 3; i++) {
      await send({ method: 'GET', path: `/r/${i}`, headers: {}, timeoutMs: 2_000 });
    }
    expect(s.seen).toHaveLength(3);
    expect(s.connections).toHaveLength(1);
  });

  it('gives up after timeoutMs and closes the connection', async () => {
    const s = await serve(() => {}); // never answers
    const sent = transportTo(s.url)({ method: 'GET', path: '/slow', headers: {}, timeoutMs: 50 });
    await expect(sent).rejects.toBeInstanceOf(AttemptTimeout);
    await tick(50);
    expect(s.closed()).toBe(1);
  });

  it('stops at once when the signal aborts, with its reason, and closes the connection', async () => {
    const s = await serve(() => {});
    const abort = new AbortController();
    const sent = transportTo(s.url)({
      method: 'GET',
      path: '/slow',
      headers: {},
      timeoutMs: 60_000,
      signal: abort.signal,
    });
    await tick(30);
    abort.abort(new Error('stop'));
    await expect(sent).rejects.toThrow('stop');
    await tick(50);
    expect(s.closed()).toBe(1);
  });

  it('stops every request in flight on the same signal, and none that finished before', async () => {
    const s = await serve((req, res) => {
      if (req.url === '/fast') res.end('{}');
    });
    const send = transportTo(s.url);
    const abort = new AbortController();
    const get = (path: string) =>
      send({ method: 'GET', path, headers: {}, timeoutMs: 60_000, signal: abort.signal });
    expect((await get('/fast')).status).toBe(200);
    const slow = [get('/a'), get('/b')];
    await tick(30);
    abort.abort(new Error('stop'));
    for (const sent of slow) await expect(sent).rejects.toThrow('stop');
    await expect(get('/fast')).rejects.toThrow('stop'); // aborted already: nothing sent
    expect(s.seen.map((r) => r.url)).toEqual(['/fast', '/a', '/b']);
  });

  it('classifies a refused connection and one dropped mid-answer by their codes', async () => {
    const s = await serve((_, res) => {
      res.writeHead(200, { 'content-length': '100' });
      res.write('{"partial":');
      setTimeout(() => res.socket?.destroy(), 10);
    });
    const dropped = transportTo(s.url)({ method: 'GET', path: '/', headers: {}, timeoutMs: 2_000 });
    await expect(dropped).rejects.toMatchObject({ name: 'TransportError', code: 'ECONNRESET' });
    // a port nothing listens on any more
    const server = createHttpServer();
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const { port } = server.address() as AddressInfo;
    await new Promise((r) => server.close(r));
    const refused = transportTo(`http://127.0.0.1:${port}`)({
      method: 'GET',
      path: '/',
      headers: {},
      timeoutMs: 2_000,
    });
    await expect(refused).rejects.toMatchObject({ name: 'TransportError', code: 'ECONNREFUSED' });
  });

  it('never follows a redirect: the 3xx is the answer', async () => {
    const s = await serve((_, res) => {
      res.writeHead(302, { location: 'http://127.0.0.1:9/elsewhere' });
      res.end();
    });
    const res = await transportTo(s.url)({
      method: 'GET',
      path: '/',
      headers: {},
      timeoutMs: 2_000,
    });
    expect(res).toMatchObject({
      status: 302,
      headers: { location: 'http://127.0.0.1:9/elsewhere' },
    });
  });

  it('speaks TLS to an https base URL, verifying the certificate (a failure is a network error)', async () => {
    const s = await serve((_, res) => res.end('{}'), true);
    const sent = transportTo(s.url)({ method: 'GET', path: '/', headers: {}, timeoutMs: 2_000 });
    await expect(sent).rejects.toBeInstanceOf(TransportError);
    await expect(sent).rejects.toMatchObject({ code: 'DEPTH_ZERO_SELF_SIGNED_CERT' });
    expect(s.seen).toEqual([]);
    const api = createApiClient({ baseUrl: s.url, apiKey: 'k-tls-0123456789', maxAttempts: 1 });
    cleanup.push(() => api.close());
    await expect(
      api.request({ method: 'GET', path: '/x', auth: 'infra', operation: 'reading x' }),
    ).rejects.toMatchObject({
      code: 'network',
      message: `reading x: connection to the platform at ${s.url} failed (DEPTH_ZERO_SELF_SIGNED_CERT)`,
    });
  });
});
