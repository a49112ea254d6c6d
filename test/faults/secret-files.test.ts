import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { emulatorControl } from '../../src/emulator/admin/client.js';
import { type RunningEmulator, startEmulator } from '../../src/emulator/index.js';
import { loadAndValidate } from '../../src/manifests/index.js';
import {
  MAX_SECRET_FILE_BYTES,
  readCapped,
  readSecretFile,
} from '../../src/providers/secret-files.js';
import { runCli } from '../helpers/cli.js';

// Issue 22, items 7 and 8: a manifest's `passwordFrom.file` is sent to the platform as a user's
// password, so it may read a password and nothing else: not platctl's own key, not /proc, not a
// device, not a file that never ends.

const apiKey = `key-${randomBytes(16).toString('hex')}`;
let dir: string;
let keyFile: string;

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'platctl-secret-files-'));
  keyFile = join(dir, 'api-key');
  writeFileSync(keyFile, `${apiKey}\n`);
});
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A user manifest whose password is read from `file`, and where that reference sits. */
function userYaml(name: string, file: string): { text: string; line: number; col: number } {
  const text = [
    'apiVersion: platctl.io/v1alpha1',
    'kind: User',
    'metadata:',
    `  name: ${name}@acme.example`,
    'spec:',
    '  first_name: Eve',
    '  last_name: Ops',
    '  user_type: CONSOLE',
    '  passwordFrom:',
    `    file: ${file}`,
    '',
  ].join('\n');
  return { text, line: 10, col: 11 };
}

describe('readSecretFile: a password, nothing else', () => {
  const refused = async (path: string, rules = {}) => {
    const err = await readSecretFile(path, rules).then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(err, path).toBeInstanceOf(Error);
    expect(err!.message).not.toContain(apiKey);
    return err!.message;
  };

  it('refuses platctl’s own key file, also through a symlink, and reads an ordinary file', async () => {
    const link = join(dir, 'innocent-password');
    symlinkSync(keyFile, link);
    expect(await refused(keyFile, { refusedFiles: [keyFile] })).toMatch(
      /api-key is one of platctl's own credential files; refused/,
    );
    expect(await refused(link, { refusedFiles: [keyFile] })).toMatch(
      /innocent-password is one of platctl's own credential files/,
    );
    const pw = join(dir, 'pw');
    writeFileSync(pw, 'correct-horse\n');
    expect(await readSecretFile(pw, { refusedFiles: [keyFile] })).toBe('correct-horse');
  });

  it('refuses /proc, /dev and /sys, by name or behind a symlink, without opening them', async () => {
    expect(await refused('/proc/self/environ')).toMatch(
      /resolves to \/proc\/\d+\/environ, a kernel or device file/,
    );
    expect(await refused('/dev/zero')).toMatch(
      /\/dev\/zero resolves to \/dev\/zero, a kernel or device file/,
    );
    expect(await refused('/dev/urandom')).toMatch(
      /a kernel or device file, not a password; refused/,
    );
    const zero = join(dir, 'zero-link');
    symlinkSync('/dev/zero', zero);
    expect(await refused(zero)).toMatch(/zero-link resolves to \/dev\/zero/);
  });

  it('refuses a directory and a FIFO (without waiting for a writer)', async () => {
    mkdirSync(join(dir, 'a-dir'));
    expect(await refused(join(dir, 'a-dir'))).toMatch(/is not a regular file; refused/);
    const fifo = join(dir, 'a-fifo');
    execFileSync('mkfifo', [fifo]);
    expect(await refused(fifo)).toMatch(/is not a regular file; refused/);
  });

  it('refuses a file over 64 KiB (a 1 GiB sparse file too) and reads one of exactly 64 KiB', async () => {
    expect(MAX_SECRET_FILE_BYTES).toBe(65_536);
    const sparse = join(dir, 'sparse');
    writeFileSync(sparse, '');
    truncateSync(sparse, 2 ** 30);
    expect(await refused(sparse)).toMatch(/sparse is 1073741824 bytes, over the limit of 65536/);
    const exact = join(dir, 'exact');
    writeFileSync(exact, 'x'.repeat(MAX_SECRET_FILE_BYTES));
    expect((await readSecretFile(exact)).length).toBe(MAX_SECRET_FILE_BYTES);
    const over = join(dir, 'over');
    writeFileSync(over, `${'y'.repeat(MAX_SECRET_FILE_BYTES)}z`);
    const message = await refused(over);
    expect(message).toMatch(/over the limit of 65536/);
    expect(message).not.toMatch(/yyyy|z;/);
  });

  it('reads at most cap + 1 bytes of a file that never ends, into one buffer of that size', async () => {
    let delivered = 0;
    let buffers = new Set<Buffer>();
    const endless = {
      read: async (buffer: Buffer, offset: number, length: number) => {
        buffers.add(buffer);
        // like /dev/zero, a little at a time
        const n = Math.min(length, 4096);
        delivered += n;
        buffer.fill(0, offset, offset + n);
        return { bytesRead: n };
      },
    };
    expect(await readCapped(endless, MAX_SECRET_FILE_BYTES)).toBeUndefined();
    expect(delivered).toBe(MAX_SECRET_FILE_BYTES + 1);
    expect([...buffers].map((b) => b.length)).toEqual([MAX_SECRET_FILE_BYTES + 1]);
    buffers = new Set();
    const short = {
      read: async (buffer: Buffer, offset: number) => {
        if (offset > 0) return { bytesRead: 0 };
        buffer.write('pw');
        return { bytesRead: 2 };
      },
    };
    expect((await readCapped(short, 10))?.toString()).toBe('pw');
  });
});

describe('validate refuses a password read from /proc, /dev or /sys', () => {
  it('errs at the passwordFrom.file position', async () => {
    const m = userYaml('eve', '/proc/self/environ');
    writeFileSync(join(dir, 'proc-user.yaml'), m.text);
    const r = await loadAndValidate({ paths: [join(dir, 'proc-user.yaml')], env: {} });
    expect(r.diagnostics).toMatchObject([
      {
        severity: 'error',
        code: 'refused-file',
        line: m.line,
        col: m.col,
        message: expect.stringContaining('/proc/self/environ is in /proc'),
      },
    ]);
  });
});

describe('plan and apply never send a credential file as a password', () => {
  let emulator: RunningEmulator;
  beforeAll(async () => {
    emulator = await startEmulator({ port: 0, apiKey, admin: true });
  });
  afterAll(() => emulator.close());

  it('errs at each refused reference’s file:line:col, sends nothing, and prints no key', async () => {
    const manifests = join(dir, 'manifests');
    const files = join(dir, 'plan-files');
    mkdirSync(manifests);
    mkdirSync(join(files, 'a-dir'), { recursive: true });
    const copy = join(files, 'key-copy');
    writeFileSync(copy, apiKey);
    symlinkSync(keyFile, join(files, 'leak'));
    symlinkSync('/dev/zero', join(files, 'zero'));
    const sparse = join(files, 'big');
    writeFileSync(sparse, '');
    truncateSync(sparse, 2 ** 30);
    const good = join(files, 'good-pw');
    writeFileSync(good, 'Str0ng-enough-pw\n');
    const bad = {
      'key-file': keyFile,
      'key-link': join(files, 'leak'),
      'key-copy': copy,
      'zero-link': join(files, 'zero'),
      sparse,
      directory: join(files, 'a-dir'),
    };
    for (const [name, file] of Object.entries({ ...bad, good })) {
      writeFileSync(join(manifests, `${name}.yaml`), userYaml(name, file).text);
    }
    const state = join(dir, 'state.db');
    const env = { PLATCTL_BASE_URL: emulator.url, PLATCTL_API_KEY: '' };
    const args = ['--state', state, '--api-key-file', keyFile];
    const plan = await runCli(['plan', manifests, ...args], { env });
    const out = plan.stdout + plan.stderr;
    expect(plan.code, out).toBe(1);
    for (const name of Object.keys(bad)) {
      expect(out).toMatch(new RegExp(`${name}\\.yaml:10:11: error: User/${name}@acme\\.example: `));
    }
    expect(out).not.toMatch(/good\.yaml:10:11/);
    expect(out).toContain("is one of platctl's own credential files; refused");
    expect(out).toContain("holds one of platctl's own credentials; refused");
    expect(out).toContain('resolves to /dev/zero');
    expect(out).toContain('is 1073741824 bytes, over the limit of 65536');
    expect(out).toContain('is not a regular file');
    const apply = await runCli(['apply', manifests, ...args, '--auto-approve'], { env });
    expect(apply.code).toBe(1);
    const journal = await (
      await emulatorControl(emulator.url, 'GET', '/_emulator/journal?since=0')
    ).text();
    expect(
      JSON.parse(journal).entries.filter((e: { method: string }) => e.method !== 'GET'),
    ).toEqual([]);
    expect([out, apply.stdout, apply.stderr, journal].join('\n')).not.toContain(apiKey);
  }, 60_000);
});
