import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { createControllerServer, listen } from '../../src/controller/http/server.js';
import { ControllerMetrics } from '../../src/controller/status/metrics.js';
import { initialStatus } from '../../src/controller/status/status.js';
import { memoryLogger } from './helpers/fakes.js';

const closers: (() => Promise<void>)[] = [];
afterEach(async () => {
  await Promise.all(closers.splice(0).map((c) => c()));
});

async function serve(webhookSecret?: string) {
  const triggers: string[] = [];
  const status = initialStatus('fake', { suspended: false, dryRun: false, selfHeal: true });
  const server = createControllerServer({
    status,
    metrics: new ControllerMetrics(),
    logger: memoryLogger().logger,
    ready: () => status.role === 'leader',
    trigger: (r) => triggers.push(r),
    ...(webhookSecret ? { webhookSecret } : {}),
  });
  const addr: AddressInfo = await listen(server, '127.0.0.1:0');
  closers.push(() => new Promise((r) => server.close(() => r())));
  return { url: `http://127.0.0.1:${addr.port}`, triggers, status };
}

describe('controller HTTP server', () => {
  it('answers probes: readyz follows the role', async () => {
    const s = await serve();
    expect((await fetch(`${s.url}/healthz`)).status).toBe(200);
    expect((await fetch(`${s.url}/readyz`)).status).toBe(503);
    s.status.role = 'leader';
    expect((await fetch(`${s.url}/readyz`)).status).toBe(200);
    expect((await fetch(`${s.url}/nope`)).status).toBe(404);
  });

  it('keeps /hooks/git off without a secret, POST only, and bounds the body', async () => {
    const off = await serve();
    expect((await fetch(`${off.url}/hooks/git`, { method: 'POST', body: '{}' })).status).toBe(404);
    const on = await serve('s3cret-value');
    expect((await fetch(`${on.url}/hooks/git`)).status).toBe(405);
    const big = await fetch(`${on.url}/hooks/git`, {
      method: 'POST',
      body: 'x'.repeat(1024 * 1024 + 1),
      headers: { 'x-hub-signature-256': 'sha256=00' },
    });
    expect(big.status).toBe(413);
    expect(on.triggers).toEqual([]);
  });

  it('refuses a bad listen address', () => {
    expect(() => listen(createControllerServer({} as never), 'localhost:http')).toThrow(/--listen/);
  });
});
