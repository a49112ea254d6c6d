import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import type { DialectName } from '../../src/core/dialect.js';
import { startEmulator } from '../../src/emulator/index.js';
import { runCli } from '../helpers/cli.js';

// `platctl doctor` against the emulator in each dialect, with a read-only key, and against a
// platform that answers nothing useful: the real CLI over loopback HTTP.
const closers: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const c of closers) await c();
});

async function emulator(dialect: DialectName) {
  const apiKey = randomBytes(16).toString('hex');
  const emu = await startEmulator({ apiKey, dialect });
  closers.push(() => emu.close());
  return { url: emu.url, apiKey };
}

const doctor = (url: string, apiKey: string, ...args: string[]) =>
  runCli(['doctor', '--base-url', url, ...args], {
    env: { PLATCTL_API_KEY: apiKey, PLATCTL_DIALECT: undefined, PLATCTL_CONFIG: '/nonexistent' },
  });

describe('platctl doctor', () => {
  it.each(['spec', 'rafay'] as const)(
    'recommends the %s dialect to a platform speaking it',
    async (d) => {
      const emu = await emulator(d);
      const r = await doctor(emu.url, emu.apiKey, '-o', 'json', '--dialect', d);
      expect(r.code, r.stderr + r.stdout).toBe(0);
      const report = JSON.parse(r.stdout);
      expect(report.recommended).toBe(d);
      const byCheck = Object.fromEntries(report.checks.map((c: { check: string }) => [c.check, c]));
      expect(byCheck['can write'].status).toBe('ok');
      expect(byCheck['clock skew'].status).toBe('ok');
      expect(byCheck.dialect.status).toBe('ok');
      expect(r.stdout).not.toContain(emu.apiKey);
    },
  );

  it('tells a spec-configured user of a rafay platform which dialect to set, as a table', async () => {
    const emu = await emulator('rafay');
    const r = await doctor(emu.url, emu.apiKey);
    expect(r.code).toBe(0);
    expect(r.stdout).toMatch(/WARN\s+dialect\s+configured spec, the platform answers as rafay/);
    expect(r.stdout).toContain('fix: pass --dialect rafay');
    expect(r.stdout).toContain('X-RAFAY-API-KEYID 200');
  });

  it('fails with a fix for a refused key and for a platform that answers nothing useful', async () => {
    const emu = await emulator('spec');
    const refused = await doctor(emu.url, 'not-the-key');
    expect(refused.code).toBe(1);
    expect(refused.stdout).toMatch(/FAIL\s+auth header\s+no header takes the key/);
    const useless: Server = createServer((_req, res) => res.writeHead(404).end('nothing here'));
    await new Promise<void>((resolve) => useless.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise((resolve) => useless.close(() => resolve())));
    const port = (useless.address() as AddressInfo).port;
    const r = await doctor(`http://127.0.0.1:${port}`, 'k');
    expect(r.code).toBe(1);
    expect(r.stdout).toContain('FAIL');
    const closed = await doctor('http://127.0.0.1:1', 'k');
    expect(closed.code).toBe(1);
    expect(closed.stdout).toMatch(/FAIL\s+reachable\s+no answer: ECONNREFUSED/);
    expect(closed.stdout).toContain('fix: check --base-url');
  });
});
