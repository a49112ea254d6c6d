import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { createStack, type Stack } from '../controller/helpers/stack.js';
import { ensureBundle } from './helpers/bundle.js';

let stack: Stack;
beforeEach(async () => {
  stack = await createStack();
});
afterEach(async () => {
  await stack.close();
});

describe('the controller serves the dashboard', () => {
  it('mounts the page and the usage route beside its own endpoints', async () => {
    const token = 'control-token-mount-41c2';
    const c = await stack.controller({ controlToken: token, dashboardDir: await ensureBundle() });
    const base = `http://127.0.0.1:${c.address.port}`;
    const page = await fetch(`${base}/`);
    expect(page.status).toBe(200);
    const html = await page.text();
    const script = /src="(\/assets\/[^"]+\.js)"/.exec(html)?.[1];
    expect(script).toBeDefined();
    expect((await fetch(`${base}${script}`)).status).toBe(200);
    expect(html).not.toMatch(/https?:\/\//); // nothing loaded from elsewhere
    const usage = await fetch(`${base}/api/v1/usage`, {
      headers: { authorization: `Bearer ${token}` },
    });
    expect(usage.status).toBe(200);
    expect(await usage.json()).toEqual({ items: [] });
    expect((await fetch(`${base}/api/v1/usage`)).status).toBe(401);
    expect((await fetch(`${base}/healthz`)).status).toBe(200);
    expect((await fetch(`${base}/nothing-here`)).status).toBe(404);
  });
});
