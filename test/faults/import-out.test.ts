import { randomBytes } from 'node:crypto';
import {
  linkSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningEmulator, startEmulator } from '../../src/emulator/index.js';
import { runCli } from '../helpers/cli.js';

// Issue 22, item 12: `import --out DIR --force` wrote through a symlink planted in DIR (a
// checkout someone else prepared), overwriting whatever it pointed at.
const apiKey = `key-${randomBytes(12).toString('hex')}`;
let emulator: RunningEmulator;
let dir: string;
let files: string[];

const importInto = (out: string, ...flags: string[]) =>
  runCli(['import', '--out', out, ...flags], {
    env: {
      PLATCTL_BASE_URL: emulator.url,
      PLATCTL_API_KEY: apiKey,
      PLATCTL_STATE_URL: join(dir, 'no-state.db'),
    },
  });

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'platctl-import-out-'));
  emulator = await startEmulator({ port: 0, apiKey });
  // the files an import of this platform writes
  const first = await importInto(join(dir, 'first'));
  expect(first.code, first.stderr).toBe(0);
  files = readdirSync(join(dir, 'first')).sort();
  expect(files.length).toBeGreaterThan(0);
}, 60_000);
afterAll(async () => {
  await emulator.close();
  rmSync(dir, { recursive: true, force: true });
});

describe('import --force into a directory holding links', () => {
  it('refuses a symlink planted where a file goes, naming it, and leaves its target and the directory untouched', async () => {
    const out = join(dir, 'planted');
    mkdirSync(out);
    const victim = join(dir, 'victim.txt');
    writeFileSync(victim, 'precious\n');
    const name = files[0]!;
    symlinkSync(victim, join(out, name));
    const r = await importInto(out, '--force');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${join(out, name)} is a symbolic link`);
    expect(readFileSync(victim, 'utf8')).toBe('precious\n');
    // nothing written: not the other files, not a temporary one
    expect(readdirSync(out)).toEqual([name]);
    expect(lstatSync(join(out, name)).isSymbolicLink()).toBe(true);
  });

  it('refuses a symlink to a directory where a file goes', async () => {
    const out = join(dir, 'dir-link');
    mkdirSync(out);
    mkdirSync(join(dir, 'elsewhere'));
    symlinkSync(join(dir, 'elsewhere'), join(out, files.at(-1)!));
    const r = await importInto(out, '--force');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${join(out, files.at(-1)!)} is a symbolic link`);
    expect(readdirSync(join(dir, 'elsewhere'))).toEqual([]);
  });

  it('refuses a --out that is itself a symbolic link, naming where it points', async () => {
    const target = join(dir, 'real-target');
    mkdirSync(target);
    const out = join(dir, 'out-link');
    symlinkSync(target, out);
    const r = await importInto(out, '--force');
    expect(r.code).toBe(1);
    expect(r.stderr).toContain(`${out} is a symbolic link (to ${realpathSync(target)})`);
    expect(readdirSync(target)).toEqual([]);
  });

  it('replaces a hard-linked file’s entry, never the file it shares, and overwrites ordinary files', async () => {
    const out = join(dir, 'hard');
    mkdirSync(out);
    const shared = join(dir, 'shared.txt');
    writeFileSync(shared, 'shared\n');
    linkSync(shared, join(out, files[0]!));
    for (const f of files.slice(1)) writeFileSync(join(out, f), 'stale\n');
    const r = await importInto(out, '--force');
    expect(r.code, r.stderr).toBe(0);
    expect(readFileSync(shared, 'utf8')).toBe('shared\n');
    for (const f of files) {
      expect(readFileSync(join(out, f), 'utf8')).toBe(readFileSync(join(dir, 'first', f), 'utf8'));
    }
    expect(readdirSync(out).sort()).toEqual(files);
  });
});
