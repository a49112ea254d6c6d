import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';

/**
 * `npm ci` refuses a lockfile that lacks an entry for any optional dependency of a locked package,
 * even one for another OS (biome's per-platform binaries). These checks keep the committed lockfile
 * complete, so `npm ci` works in CI, in the Dockerfile and on a developer's laptop.
 */
const root = new URL('../../', import.meta.url);
const read = (name: string) => JSON.parse(readFileSync(new URL(name, root), 'utf8'));

interface LockEntry {
  version?: string;
  optionalDependencies?: Record<string, string>;
}

describe('package-lock.json', () => {
  const pkg = read('package.json');
  const lock = read('package-lock.json') as { packages: Record<string, LockEntry> };

  it('locks an entry for every optional dependency of every locked package', () => {
    const missing: string[] = [];
    for (const [path, entry] of Object.entries(lock.packages)) {
      for (const dep of Object.keys(entry.optionalDependencies ?? {})) {
        if (
          !lock.packages[`node_modules/${dep}`] &&
          !lock.packages[`${path}/node_modules/${dep}`]
        ) {
          missing.push(`${path || '(root)'} -> ${dep}`);
        }
      }
    }
    expect(missing).toEqual([]);
  });

  it('pins biome exactly, so the lock and package.json cannot drift to an incomplete release', () => {
    const wanted = pkg.devDependencies['@biomejs/biome'];
    expect(wanted).toMatch(/^\d+\.\d+\.\d+$/);
    expect(lock.packages['node_modules/@biomejs/biome']?.version).toBe(wanted);
    expect(lock.packages['']).toMatchObject({ devDependencies: { '@biomejs/biome': wanted } });
  });
});

describe('installs use npm ci', () => {
  const text = (name: string) => readFileSync(new URL(name, root), 'utf8');
  it.each(['.ci/run', 'Dockerfile'])('%s installs with npm ci, never npm install', (file) => {
    expect(text(file)).toMatch(/^(RUN )?npm ci\b/m);
    expect(text(file)).not.toMatch(/npm install\b/);
  });
  it('README tells people to npm ci', () => {
    expect(text('README.md')).toMatch(/^npm ci\b/m);
  });
});
