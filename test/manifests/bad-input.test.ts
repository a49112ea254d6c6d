import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadAndValidate } from '../../src/manifests/index.js';
import { boundDocuments } from '../../src/manifests/input-checks.js';

let dir: string;
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'platctl-bad-input-'));
});
afterEach(() => rmSync(dir, { recursive: true, force: true }));

const workspace = (name: string, display = 'Shared') =>
  `apiVersion: paas.envmgmt.io/v1\nkind: Workspace\nmetadata:\n  name: ${name}\n  project: platform\n  displayName: ${display}\n`;

describe('bytes that are not manifest text', () => {
  it('rejects invalid UTF-8 at the first bad byte, instead of changing the text', async () => {
    const bytes = Buffer.concat([
      Buffer.from(workspace('ws', 'Caf').slice(0, -1)),
      Buffer.from([0xe9, 0x0a]), // Latin-1 "é"
    ]);
    writeFileSync(join(dir, 'latin1.yaml'), bytes);
    const r = await loadAndValidate({ paths: [dir], env: {} });
    expect(r.diagnostics).toMatchObject([
      { code: 'invalid-encoding', file: expect.stringMatching(/latin1\.yaml$/), line: 6, col: 19 },
    ]);
    expect(r.manifests).toEqual([]);
  });

  it('rejects a NUL byte at its position, and accepts real UTF-8', async () => {
    writeFileSync(join(dir, 'nul.yaml'), workspace('ws', 'Sha\0red'));
    const r = await loadAndValidate({ paths: [dir], env: {} });
    expect(r.diagnostics).toMatchObject([{ code: 'invalid-encoding', line: 6, col: 19 }]);
    rmSync(join(dir, 'nul.yaml'));
    writeFileSync(join(dir, 'utf8.yaml'), workspace('ws', 'Café ☕ 🚀'));
    const ok = await loadAndValidate({ paths: [dir], env: {} });
    expect(ok.diagnostics).toEqual([]);
    expect(ok.manifests[0]!.manifest.metadata).toMatchObject({ displayName: 'Café ☕ 🚀' });
  });
});

describe('a symlink to the directory itself', () => {
  it('is called a loop, not a way outside', async () => {
    writeFileSync(join(dir, 'ws.yaml'), workspace('ws'));
    symlinkSync('.', join(dir, 'self'));
    const r = await loadAndValidate({ paths: [dir], env: {} });
    expect(r.diagnostics).toMatchObject([
      { code: 'symlink-escape', message: expect.stringContaining('itself (a loop)') },
    ]);
  });
});

describe('bounds on documents', () => {
  it('refuses a file of endless --- lines quickly, naming the file', async () => {
    writeFileSync(join(dir, 'dashes.yaml'), '---\n'.repeat(50_000));
    writeFileSync(join(dir, 'fine.yaml'), workspace('ws'));
    const r = await loadAndValidate({ paths: [dir], env: {} });
    expect(r.diagnostics).toMatchObject([
      {
        code: 'too-many-documents',
        file: expect.stringMatching(/dashes\.yaml$/),
        message: expect.stringContaining('50001 documents'),
      },
    ]);
  });

  it('bounds documents in all files and the size of one document', () => {
    const src = (file: string, n: number) => ({
      file,
      text: Array(n).fill('a: 1\n').join('---\n'),
    });
    const limits = {
      maxDocumentsPerFile: 10,
      maxDocuments: 15,
      maxDocumentChars: 100,
      maxDiagnostics: 5,
    };
    const r = boundDocuments([src('a', 8), src('b', 8), src('c', 1)], limits);
    expect(r.sources.map((s) => s.file)).toEqual(['a']);
    expect(r.diagnostics).toMatchObject([
      { file: 'b', message: expect.stringContaining('15 documents in all') },
    ]);
    const big = boundDocuments([{ file: 'big', text: `a: "${'x'.repeat(200)}"\n` }], limits);
    expect(big.diagnostics).toMatchObject([
      { file: 'big', message: expect.stringContaining('over the limit of 100') },
    ]);
  });

  it('stops listing diagnostics after 1000 and counts the rest', async () => {
    const bad = Array.from({ length: 1500 }, (_, i) => `kind: Nope${i}\nmetadata: {name: n${i}}\n`);
    writeFileSync(join(dir, 'bad.yaml'), bad.join('---\n'));
    const r = await loadAndValidate({ paths: [dir], env: {} });
    expect(r.diagnostics).toHaveLength(1001);
    expect(r.diagnostics.at(-1)).toMatchObject({
      code: 'too-many-diagnostics',
      message: expect.stringMatching(/^\d+ more diagnostics not shown/),
    });
  });
});
