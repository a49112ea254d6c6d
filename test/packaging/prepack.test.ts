import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * The package ships `dist/` (package.json `files`) and `bin/platctl.js` runs it when no `src/` is
 * beside it, as in an installed package: a tarball packed from a clone whose build is missing or
 * older than its sources would install a `platctl` that cannot start or runs old code. `npm pack`
 * and `npm publish` run the `prepack` script first; it builds. (test/e2e/install.test.ts packs
 * with `--ignore-scripts` and copies the repository's build instead, to stay fast.)
 */
const root = new URL('../../', import.meta.url);
const pkg = JSON.parse(readFileSync(new URL('package.json', root), 'utf8')) as {
  files: string[];
  scripts: Record<string, string>;
};

describe('npm pack and npm publish ship a fresh build', () => {
  it('prepack runs the whole build: the compiled CLI and the dashboard page', () => {
    expect(pkg.scripts.prepack).toBe('npm run build');
    expect(pkg.scripts.build).toMatch(/\bbuild:dist\b.*\bbuild:web\b/);
  });

  it('ships the build the command runs, and no sources', () => {
    expect(pkg.files).toContain('dist');
    expect(pkg.files).not.toContain('src');
    const bin = readFileSync(new URL('bin/platctl.js', root), 'utf8');
    expect(bin).toContain("'dist/src/cli/bin.js'");
  });
});
