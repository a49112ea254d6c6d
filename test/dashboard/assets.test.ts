import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { assetRoutes } from '../../src/controller/http/dashboard/assets.js';

let server: Server;
let dir: string;
let base: string;

async function serve(withBuild: boolean): Promise<void> {
  dir = mkdtempSync(join(tmpdir(), 'platctl-assets-'));
  if (withBuild) {
    mkdirSync(join(dir, 'assets'));
    writeFileSync(join(dir, 'index.html'), '<!doctype html><title>x</title>');
    writeFileSync(join(dir, 'assets', 'index-abc123.js'), 'console.log(1)');
  }
  writeFileSync(join(dir, 'secret.txt'), 'not served');
  const route = assetRoutes(dir);
  server = createServer(async (req, res) => {
    if (!(await route(req, res, new URL(req.url ?? '/', 'http://x')))) res.writeHead(404).end();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

afterEach(async () => {
  await new Promise<void>((r) => server.close(() => r()));
  rmSync(dir, { recursive: true, force: true });
});

describe('the dashboard static files', () => {
  it('serves the page uncached and hashed assets for a year, with a same-origin-only policy', async () => {
    await serve(true);
    const page = await fetch(`${base}/`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toBe('text/html; charset=utf-8');
    expect(page.headers.get('cache-control')).toBe('no-cache');
    expect(page.headers.get('content-security-policy')).toMatch(/script-src 'self';/);
    expect(page.headers.get('x-frame-options')).toBe('DENY');
    const js = await fetch(`${base}/assets/index-abc123.js`);
    expect(js.headers.get('content-type')).toBe('text/javascript; charset=utf-8');
    expect(js.headers.get('cache-control')).toMatch(/immutable/);
    expect(await js.text()).toBe('console.log(1)');
  });

  it('serves nothing outside the build: traversal, other files and unknown assets pass on', async () => {
    await serve(true);
    for (const path of [
      '/secret.txt',
      '/assets/..%2Fsecret.txt',
      '/assets/%2e%2e/secret.txt',
      '/assets/missing.js',
      '/assets/',
    ]) {
      expect((await fetch(`${base}${path}`)).status, path).toBe(404);
    }
    expect((await fetch(`${base}/`, { method: 'POST' })).status).toBe(404);
  });

  it("answers the page for a view's deep link a browser opens, and only for a browser", async () => {
    await serve(true);
    const html = { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' };
    for (const path of [
      '/runs/r-1',
      '/resources/Workspace%2Fplatform%2Fml',
      '/usage',
      '/secret.txt',
    ]) {
      const res = await fetch(`${base}${path}`, { headers: html });
      expect(res.status, path).toBe(200);
      expect(await res.text(), path).toBe('<!doctype html><title>x</title>');
    }
    expect((await fetch(`${base}/runs/r-1`)).status).toBe(404);
    expect((await fetch(`${base}/api/v1/nothing`, { headers: html })).status).toBe(404);
    expect((await fetch(`${base}/assets/missing.js`, { headers: html })).status).toBe(404);
  });

  it('says how to build the page when it is missing', async () => {
    await serve(false);
    const res = await fetch(`${base}/`);
    expect(res.status).toBe(503);
    expect(await res.text()).toMatch(/npm run build/);
  });
});
