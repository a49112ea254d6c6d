import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli.js';

// `platctl ctl` checks the shape of what it is answered: something that is not a controller
// (a proxy, an older or broken one) gets a clear error, never a crash or a false success.

let server: Server;
let url: string;
/** What the fake answers each path with (200 and this JSON). */
let answers: Record<string, unknown> = {};
beforeAll(async () => {
  server = createServer((req, res) => {
    const path = (req.url ?? '').split('?')[0] ?? '';
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end(JSON.stringify(answers[path] ?? {}));
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise<void>((r) => server.close(() => r()));
});

const ctl = (args: string[]) =>
  runCli(['ctl', ...args], {
    env: { PLATCTL_CONTROLLER_URL: url, PLATCTL_CONTROL_TOKEN: 'token-shapes-1' },
  });

describe('ctl on answers of the wrong shape', () => {
  it('status: an answer without source (or anything) is an error naming what is missing', async () => {
    answers = { '/api/v1/status': { role: 'leader' }, '/api/v1/resources': { items: [] } };
    const r = await ctl(['status']);
    expect(r.code).not.toBe(0);
    expect(r.stderr).not.toMatch(/TypeError|Cannot read/);
    expect(r.stderr).toMatch(/GET \/api\/v1\/status: .*source/);
  });

  it('reconcile, suspend, resume: {} is not a success', async () => {
    answers = {};
    for (const verb of ['reconcile', 'suspend', 'resume']) {
      const r = await ctl([verb]);
      expect(r.code, verb).not.toBe(0);
      expect(r.stdout, verb).toBe('');
      expect(r.stderr, verb).toMatch(/not the answer of a platctl controller/);
    }
  });

  it('a well-formed answer still works', async () => {
    answers = { '/api/v1/reconcile': { accepted: true }, '/api/v1/suspend': { suspended: true } };
    expect((await ctl(['reconcile'])).stdout).toBe('reconcile requested\n');
    expect((await ctl(['suspend'])).stdout).toBe('suspended\n');
  });
});
