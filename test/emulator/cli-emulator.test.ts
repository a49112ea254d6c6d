import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { parseTransitions } from '../../src/cli/emulator-run.js';
import { emulatorControl } from '../../src/emulator/admin/client.js';
import { runCli } from '../helpers/cli.js';
import { keyHeaders } from '../helpers/key-header.js';
import { PLATCTL_JS } from '../helpers/platctl-bin.js';

const bin = PLATCTL_JS;
const KEY = 'cli-test-key-0042';

describe('platctl emulator', () => {
  it('prints its URL (never the key), serves the API with the env key, and stops on SIGTERM', async () => {
    const child = spawn(
      process.execPath,
      [bin, 'emulator', '--port', '0', '--admin', '--transition-seconds', 'cluster-provision=5'],
      {
        env: { ...process.env, PLATCTL_EMULATOR_API_KEY: KEY, NO_COLOR: '1' },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let out = '';
    let err = '';
    child.stderr.on('data', (d: Buffer) => {
      err += d.toString();
    });
    const url = await new Promise<string>((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`no URL printed: ${out} ${err}`)), 20_000);
      child.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const m = /listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
        if (m) {
          clearTimeout(timer);
          resolve(m[1]!);
        }
      });
    });
    // the child speaks PLATCTL_DIALECT's dialect, as it inherits the variable: its headers
    const ok = await fetch(`${url}/auth/v1/projects/`, { headers: keyHeaders(KEY) });
    expect(ok.status).toBe(200);
    expect((await fetch(`${url}/auth/v1/projects/`)).status).toBe(401);
    expect((await emulatorControl(url, 'GET', '/_emulator/clock')).status).toBe(200);
    const exited = new Promise<number | null>((resolve) => child.on('close', resolve));
    child.kill('SIGTERM');
    expect(await exited).toBe(0);
    expect(out + err).not.toContain(KEY);
    expect(out).toContain('stopped');
  });

  it('refuses to start without a key, naming the environment variable', async () => {
    const r = await runCli(['emulator', '--port', '0'], {
      env: { PLATCTL_EMULATOR_API_KEY: undefined },
    });
    expect(r.code).toBe(1);
    expect(r.stderr).toContain('PLATCTL_EMULATOR_API_KEY');
  });

  it('parses --transition-seconds and rejects unknown names', () => {
    expect(parseTransitions('vpc-deploy=5, compute-provision=10')).toEqual({
      'vpc-deploy': 5,
      'compute-provision': 10,
    });
    expect(() => parseTransitions('warp=1')).toThrow(/warp/);
    expect(() => parseTransitions('vpc-deploy=-1')).toThrow(/vpc-deploy/);
  });
});
