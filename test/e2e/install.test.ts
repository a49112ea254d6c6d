import { execFileSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// `platctl` as the README tells people to run it: `npx platctl` from a clone right after
// `npm install` (no build), and from their own repository with the package installed.
const repo = fileURLToPath(new URL('../../', import.meta.url));
const deps = join(repo, 'node_modules');
let dir: string;

/** A node_modules directory holding (links to) every dependency, as `npm install` leaves it. */
function installDeps(into: string) {
  mkdirSync(join(into, 'node_modules'), { recursive: true });
  for (const name of readdirSync(deps)) {
    if (name === '.bin' || name === 'platctl') continue;
    symlinkSync(join(deps, name), join(into, 'node_modules', name));
  }
}

const npx = (cwd: string, ...args: string[]) =>
  execFileSync('npx', ['--no-install', 'platctl', ...args], {
    cwd,
    encoding: 'utf8',
    env: { ...process.env, NO_COLOR: '1' },
    stdio: ['ignore', 'pipe', 'pipe'],
    timeout: 60_000,
  });

beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'platctl-install-'));
});
afterAll(() => {
  rmSync(dir, { recursive: true, force: true });
});

describe('running platctl', () => {
  const clone = () => join(dir, 'clone');

  it('from a clone after npm install, without a build: npx platctl', () => {
    mkdirSync(clone());
    for (const f of [
      'package.json',
      'bin',
      'src',
      'schemas',
      'api',
      'examples',
      'tsconfig.json',
      'tsconfig.build.json',
    ]) {
      cpSync(join(repo, f), join(clone(), f), { recursive: true });
    }
    installDeps(clone());
    expect(existsSync(join(clone(), 'dist'))).toBe(false);
    expect(npx(clone(), '--version').trim()).toMatch(/^\d+\.\d+\.\d+/);
    expect(npx(clone(), 'validate', 'examples/manifests/')).toMatch(/manifests valid/);
  }, 90_000);

  it('from your own repository with the package installed, schemas beside it for the editor', () => {
    // what `npm pack` puts in the tarball, with the build beside the sources. A real pack runs
    // the `prepack` build first (test/packaging/prepack.test.ts); --ignore-scripts skips it here
    // (half a minute) and the repository's own dist/ stands in: the suite's global setup keeps
    // it the build of these very sources
    cpSync(join(repo, 'dist'), join(clone(), 'dist'), { recursive: true });
    const packed = JSON.parse(
      execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts'], {
        cwd: clone(),
        encoding: 'utf8',
        stdio: ['ignore', 'pipe', 'ignore'],
      }),
    )[0].files.map((f: { path: string }) => f.path) as string[];
    expect(packed).toEqual(
      expect.arrayContaining([
        'bin/platctl.js',
        'dist/src/cli/bin.js',
        'dist/api/parsed-yaml.json',
        'schemas/manifest.schema.json',
      ]),
    );
    expect(packed.some((p) => p.startsWith('src/'))).toBe(false);
    // the emulator's request checks as the build made them (one module per dialect and kind)
    expect(packed.filter((p) => p.startsWith('dist/api/checks/')).length).toBeGreaterThan(0);

    // ... unpacked into node_modules/platctl of the user's repository, its bin linked
    const own = join(dir, 'acme-platform');
    const pkg = join(own, 'node_modules', 'platctl');
    for (const p of packed) {
      mkdirSync(dirname(join(pkg, p)), { recursive: true });
      cpSync(join(clone(), p), join(pkg, p));
    }
    installDeps(own);
    mkdirSync(join(own, 'node_modules', '.bin'));
    symlinkSync('../platctl/bin/platctl.js', join(own, 'node_modules', '.bin', 'platctl'));
    writeFileSync(join(own, 'package.json'), '{"name":"acme-platform","private":true}\n');
    mkdirSync(join(own, 'platform'));
    const editorLine =
      '# yaml-language-server: $schema=../node_modules/platctl/schemas/manifest.schema.json';
    writeFileSync(
      join(own, 'platform', 'workspaces.yaml'),
      `${editorLine}\napiVersion: paas.envmgmt.io/v1\nkind: Workspace\nmetadata:\n  name: dev\n  project: platform\n`,
    );
    expect(
      existsSync(join(own, 'platform', '../node_modules/platctl/schemas/manifest.schema.json')),
    ).toBe(true);
    expect(npx(own, 'validate', 'platform/')).toMatch(/1 manifest/);
  }, 120_000);
});
