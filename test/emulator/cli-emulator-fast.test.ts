import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { EXAMPLES } from '../e2e/harness.js';
import { runCli } from '../helpers/cli.js';
import { PLATCTL_JS } from '../helpers/platctl-bin.js';

const bin = PLATCTL_JS;
const KEY = 'fast-test-key-0042';
const children: ChildProcess[] = [];
const dirs: string[] = [];

afterEach(() => {
  for (const c of children.splice(0)) c.kill('SIGTERM');
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** Starts `platctl emulator --port 0 ...args`; resolves with its URL and what it printed. */
async function emulator(...args: string[]): Promise<{ url: string; out: string }> {
  const child = spawn(process.execPath, [bin, 'emulator', '--port', '0', ...args], {
    env: { ...process.env, PLATCTL_EMULATOR_API_KEY: KEY, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  children.push(child);
  let out = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no URL printed: ${out}`)), 20_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
      if (m && out.includes('lifecycles')) {
        clearTimeout(timer);
        resolve({ url: m[1]!, out });
      }
    });
  });
}

describe('platctl emulator lifecycles', () => {
  it('says its realistic default lifecycles and how to make them fast', async () => {
    const { out } = await emulator();
    expect(out).toMatch(/lifecycles \(realistic\): .*compute-provision 5m00s/);
    expect(out).toContain('--fast');
  });

  it('with --fast, applies the examples in seconds', async () => {
    const { url, out } = await emulator('--fast');
    expect(out).toMatch(/lifecycles \(--fast\): vpc-deploy 1s/);
    const dir = mkdtempSync(join(tmpdir(), 'platctl-fast-'));
    dirs.push(dir);
    const r = await runCli(
      ['apply', EXAMPLES, '--state', join(dir, 'state.db'), '--auto-approve'],
      {
        env: { PLATCTL_BASE_URL: url, PLATCTL_API_KEY: KEY, PLATCTL_DEMO_PASSWORD: 'Pw-fast-0042' },
        timeoutMs: 100_000,
      },
    );
    expect(r.code, r.stderr).toBe(0);
    expect(r.stdout).toMatch(/^Apply: \d+ succeeded, 0 failed/m);
  }, 120_000);
});
