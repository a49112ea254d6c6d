// biome-ignore-all lint/suspicious/noTemplateCurlyInString: these tests are about literal ${VAR} text
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadAndValidate } from '../../src/manifests/index.js';

// Issue 22, item 9: the credential check ran per variable, so the API key split across two
// variables (or between the manifest's own text and one variable) passed. The check now runs on
// the substituted text too.
const KEY = 'sk-live-7f3a9c21d4e8b605';
const [HALF_A, HALF_B] = [KEY.slice(0, 12), KEY.slice(12)];

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'platctl-substituted-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

/** A workspace whose description is `description`, on line 6 at column 16. */
function write(description: string): string {
  const file = join(dir, 'ws.yaml');
  writeFileSync(
    file,
    `apiVersion: paas.envmgmt.io/v1\nkind: Workspace\nmetadata:\n  name: ws\n  project: platform\n  description: ${description}\n`,
  );
  return file;
}

describe('substituted text holding a credential', () => {
  it('refuses ${A}${B} holding the two halves of the key, at the scalar, naming no value', async () => {
    const file = write('"${A}${B}"');
    const r = await loadAndValidate({
      paths: [file],
      vars: { A: HALF_A, B: HALF_B },
      refusedValues: [KEY],
    });
    expect(r.diagnostics).toMatchObject([
      {
        severity: 'error',
        code: 'refused-variable',
        file,
        line: 6,
        col: 16,
        message: expect.stringMatching(/\$\{A\}, \$\{B\}/),
      },
    ]);
    expect(r.manifests).toEqual([]);
    const all = JSON.stringify(r);
    expect(all).not.toContain(KEY);
    expect(all).not.toContain(HALF_A);
    expect(all).not.toContain(HALF_B);
  });

  it('refuses the key completed by one variable after text of the manifest, in a plain scalar too', async () => {
    const file = write(`${HALF_A}\${B}`);
    const r = await loadAndValidate({
      paths: [file],
      env: { PLATCTL_VAR_B: HALF_B },
      refusedValues: [KEY],
    });
    expect(r.diagnostics).toMatchObject([{ code: 'refused-variable', line: 6, col: 16 }]);
    expect(JSON.stringify(r.diagnostics)).not.toContain(HALF_B);
  });

  it('keeps substituting text that holds no credential', async () => {
    const file = write('"${A}-${B}"');
    const r = await loadAndValidate({
      paths: [file],
      vars: { A: 'team', B: 'dev' },
      refusedValues: [KEY],
    });
    expect(r.diagnostics).toEqual([]);
    expect(r.manifests[0]!.manifest.metadata).toMatchObject({ description: 'team-dev' });
  });
});
