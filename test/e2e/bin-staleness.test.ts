import { spawnSync } from 'node:child_process';
import {
  cpSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  symlinkSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// Issue 24, item 2: from a clone, bin/platctl.js runs the build when it is newer than every file
// under src/ (a fast start), else the sources through tsx, saying why when a build is there but
// stale: a stale build never runs, silently or not.

const repo = fileURLToPath(new URL('../../', import.meta.url));
let clone: string;

beforeAll(() => {
  clone = mkdtempSync(join(tmpdir(), 'platctl-stale-'));
  for (const f of ['package.json', 'bin', 'src', 'schemas', 'api', 'tsconfig.json']) {
    cpSync(join(repo, f), join(clone, f), { recursive: true });
  }
  mkdirSync(join(clone, 'node_modules'));
  for (const name of readdirSync(join(repo, 'node_modules'))) {
    if (name !== '.bin')
      symlinkSync(join(repo, 'node_modules', name), join(clone, 'node_modules', name));
  }
});
afterAll(() => rmSync(clone, { recursive: true, force: true }));

/** A stand-in for a build: a dist/ whose entry point says it ran, its mtime `at` (seconds). */
function fakeBuild(at: number) {
  const entry = join(clone, 'dist/src/cli/bin.js');
  mkdirSync(join(clone, 'dist/src/cli'), { recursive: true });
  writeFileSync(entry, "process.stdout.write('from dist\\n');\n");
  utimesSync(entry, at, at);
}

/** Every file and directory under src/ dated `at` (seconds), as a checkout leaves them. */
function dateSources(at: number) {
  const src = join(clone, 'src');
  utimesSync(src, at, at);
  for (const e of readdirSync(src, { recursive: true })) utimesSync(join(src, String(e)), at, at);
}

describe('bin/platctl.js in a clone', () => {
  it('answers --version from package.json, loading nothing', () => {
    const r = spawnSync(process.execPath, [join(clone, 'bin/platctl.js'), '--version'], {
      encoding: 'utf8',
    });
    expect(r.stdout.trim()).toMatch(/^\d+\.\d+\.\d+$/);
    expect(r.stderr).toBe('');
  });

  it('runs the sources through tsx when there is no build, without a note', () => {
    const r = validateHelp();
    expect(r.stdout).toContain('Usage: platctl validate');
    expect(r.stderr).toBe('');
  });

  it('runs the build when it is newer than every source', () => {
    dateSources(1_700_000_000);
    fakeBuild(1_700_000_100);
    const r = validateHelp();
    expect(r.stdout).toBe('from dist\n');
  });

  it('never runs a stale build: one changed source and it runs the sources, saying why', () => {
    dateSources(1_700_000_000);
    fakeBuild(1_700_000_100);
    const changed = join(clone, 'src/cli/version.ts');
    utimesSync(changed, 1_700_000_200, 1_700_000_200);
    const r = validateHelp();
    expect(r.stdout).toContain('Usage: platctl validate');
    expect(r.stderr).toContain('src/ changed since the last build');
    expect(r.stderr).toContain('npm run build');
  });

  it('counts a source added or removed (its directory changes) as a change', () => {
    dateSources(1_700_000_000);
    fakeBuild(1_700_000_100);
    writeFileSync(join(clone, 'src/cli/extra.ts'), 'export {};\n');
    const dir = join(clone, 'src/cli');
    utimesSync(join(clone, 'src/cli/extra.ts'), 1_700_000_000, 1_700_000_000);
    utimesSync(dir, 1_700_000_300, 1_700_000_300);
    expect(validateHelp().stdout).toContain('Usage: platctl validate');
    rmSync(join(clone, 'src/cli/extra.ts'));
  });
});

/**
 * `node bin/platctl.js validate --help` in the clone, both streams: `from dist` when the build
 * ran, validate's help when the sources did. (`--version` alone is answered from package.json.)
 */
function validateHelp(): { stdout: string; stderr: string } {
  const r = spawnSync(process.execPath, [join(clone, 'bin/platctl.js'), 'validate', '--help'], {
    cwd: clone,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
  });
  if (r.status !== 0) throw new Error(`exit ${r.status}: ${r.stderr}`);
  return { stdout: r.stdout, stderr: r.stderr };
}
