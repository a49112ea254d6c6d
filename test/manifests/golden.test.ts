import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { formatDiagnostics, loadAndValidate } from '../../src/manifests/index.js';

/**
 * Golden diagnostics: each folder under fixtures/ holds broken manifests and `expected.txt`, the
 * human output of `platctl validate` for it. `env.json` (optional) is the environment for
 * `${VAR}`. Regenerate with `UPDATE_GOLDEN=1 npx vitest run test/manifests`.
 */
const root = fileURLToPath(new URL('./fixtures/', import.meta.url));
const update = process.env.UPDATE_GOLDEN === '1';
const cases = readdirSync(root, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name)
  .sort();

describe('golden diagnostics', () => {
  it('has fixture cases', () => {
    expect(cases.length).toBeGreaterThanOrEqual(8);
  });

  for (const name of cases) {
    it(name, async () => {
      const dir = `${root}${name}`;
      const envFile = `${dir}/env.json`;
      const env = existsSync(envFile)
        ? (JSON.parse(readFileSync(envFile, 'utf8')) as Record<string, string>)
        : {};
      const r = await loadAndValidate({ paths: [dir], env });
      const actual = formatDiagnostics(r.diagnostics, 'human').split(`${dir}/`).join('');
      const expectedFile = `${dir}/expected.txt`;
      if (update) writeFileSync(expectedFile, actual);
      expect(existsSync(expectedFile), `${name}: run with UPDATE_GOLDEN=1 to create it`).toBe(true);
      expect(actual).toBe(readFileSync(expectedFile, 'utf8'));
      // A fixture is broken on purpose: it must produce at least one diagnostic.
      expect(r.diagnostics.length).toBeGreaterThan(0);
    });
  }
});
