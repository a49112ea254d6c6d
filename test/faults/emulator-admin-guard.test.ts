import { request } from 'node:http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ADMIN_KEY, type Harness, startHarness } from '../emulator/harness.js';

// The `--admin` test controls as an attacker's page would reach them: a browser on another origin
// can send a "simple" request (no custom header, text/plain) without asking; it can send a custom
// header only after a preflight. Requests are written with node:http so Origin and Host are exactly
// what a browser (or a DNS-rebinding page) would send.
const WS = '/apis/paas.envmgmt.io/v1/projects/platform/workspaces';

let h: Harness;
let origin: string;
beforeAll(async () => {
  h = await startHarness();
  origin = h.emu.url;
  const created = await h.call('POST', WS, {
    apiVersion: 'paas.envmgmt.io/v1',
    kind: 'Workspace',
    metadata: { name: 'keep-me', project: 'platform' },
  });
  expect(created.status).toBe(200);
});
afterAll(() => h.close());

interface Raw {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

function send(
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Raw> {
  return new Promise((resolve, reject) => {
    const req = request(`${h.emu.url}${path}`, { method, headers }, (res) => {
      let text = '';
      res.on('data', (d: Buffer) => {
        text += d.toString();
      });
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: text }),
      );
    });
    req.on('error', reject);
    req.end(body);
  });
}

const stillThere = async () => (await h.call('GET', `${WS}/keep-me`)).status;

describe('the --admin test controls against another site', () => {
  it('refuses the cross-site text/plain reset a page can send without a preflight', async () => {
    const r = await send(
      'POST',
      '/_emulator/reset',
      { origin: 'http://evil.example', 'content-type': 'text/plain' },
      '{}',
    );
    expect(r.status).toBe(403);
    expect(JSON.parse(r.body)).toMatchObject({
      code: 'forbidden',
      message: expect.stringContaining('X-Emulator-Admin'),
    });
    expect(await stillThere()).toBe(200);
  });

  it('issues no org-admin key to a request without the admin header', async () => {
    const r = await send('POST', '/_emulator/users/usr-admin/apikeys', {
      'content-type': 'text/plain',
    });
    expect(r.status).toBe(403);
    expect(r.body).not.toContain('apiKey');
  });

  it('refuses the admin header from another origin, and a rebound Host name', async () => {
    const withHeader = { 'x-emulator-admin': '1', 'content-type': 'application/json' };
    const foreign = await send('POST', '/_emulator/reset', {
      ...withHeader,
      origin: 'http://evil.example',
    });
    expect(foreign.status).toBe(403);
    expect(JSON.parse(foreign.body).message).toContain('another origin');
    const nullOrigin = await send('POST', '/_emulator/reset', { ...withHeader, origin: 'null' });
    expect(nullOrigin.status).toBe(403);
    // DNS rebinding: evil.example now resolves to 127.0.0.1, so the page is "same-origin".
    const port = new URL(h.emu.url).port;
    const rebound = await send('POST', '/_emulator/reset', {
      ...withHeader,
      host: `evil.example:${port}`,
      origin: `http://evil.example:${port}`,
    });
    expect(rebound.status).toBe(403);
    expect(JSON.parse(rebound.body).message).toContain('evil.example');
    expect(await stillThere()).toBe(200);
  });

  it('grants no preflight, so a browser never sends the header cross-site', async () => {
    const r = await send('OPTIONS', '/_emulator/reset', {
      origin: 'http://evil.example',
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'x-emulator-admin',
    });
    expect(r.status).toBeGreaterThanOrEqual(400);
    expect(Object.keys(r.headers).filter((k) => k.startsWith('access-control-'))).toEqual([]);
  });

  it('serves a same-origin page, a localhost name and a client without Origin that send the header', async () => {
    const header = { 'x-emulator-admin': '1' };
    expect((await send('GET', '/_emulator/clock', { ...header, origin })).status).toBe(200);
    const port = new URL(h.emu.url).port;
    const local = { ...header, host: `localhost:${port}`, origin: `http://localhost:${port}` };
    expect((await send('GET', '/_emulator/clock', local)).status).toBe(200);
    const key = await send('POST', '/_emulator/users/usr-admin/apikeys', header);
    expect(key.status).toBe(201);
    const apiKey = JSON.parse(key.body).apiKey as string;
    expect(apiKey).not.toBe(ADMIN_KEY);
  });

  it('says on /docs what --admin exposes and how it is protected', async () => {
    const doc = (await (await fetch(`${h.emu.url}/docs/openapi.json`)).json()) as {
      info: { description: string };
    };
    const text = doc.info.description;
    for (const part of ['--admin', '/_emulator/reset', 'apikeys', 'X-Emulator-Admin', 'Origin'])
      expect(text).toContain(part);
  });
});
