import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { KINDS, loadAndValidate, schemaFileOf } from '../../src/manifests/index.js';

const repo = fileURLToPath(new URL('../../', import.meta.url));

describe('examples/manifests', () => {
  it('validates clean and covers every kind', async () => {
    const r = await loadAndValidate({ paths: [`${repo}examples/manifests`], env: {} });
    expect(r.diagnostics).toEqual([]);
    const kinds = new Set(r.manifests.map((m) => m.manifest.kind));
    expect([...kinds].sort()).toEqual([...KINDS].sort());
    expect(r.manifests.length).toBeGreaterThanOrEqual(15);
    expect(r.manifests.length).toBeLessThanOrEqual(25);
  });

  it('uses only the seed projects and never a plain password', async () => {
    const r = await loadAndValidate({ paths: [`${repo}examples/manifests`], env: {} });
    for (const m of r.manifests) {
      const project = m.manifest.metadata.project;
      if (project !== undefined) expect(['platform', 'ml-research']).toContain(project);
      expect(JSON.stringify(m.manifest)).not.toMatch(/"password"/);
    }
  });
});

describe('schemas/', () => {
  it('has one strict draft 2020-12 schema per kind, and the editor schema dispatches to each', () => {
    const ajv = new Ajv2020({ strict: false, allowUnionTypes: true, validateFormats: false });
    const files = readdirSync(`${repo}schemas`).filter((f) => f.endsWith('.schema.json'));
    for (const f of files) {
      const schema = JSON.parse(readFileSync(`${repo}schemas/${f}`, 'utf8')) as Record<
        string,
        unknown
      >;
      expect(schema.$schema).toBe('https://json-schema.org/draft/2020-12/schema');
      ajv.addSchema(schema);
    }
    for (const kind of KINDS) expect(files).toContain(schemaFileOf(kind));
    const validate = ajv.getSchema('https://platctl.io/schemas/manifest.schema.json')!;
    // ajv here ignores formats; the dispatching itself is what is checked.
    for (const f of readdirSync(`${repo}examples/manifests`)) {
      const text = readFileSync(`${repo}examples/manifests/${f}`, 'utf8');
      for (const doc of parseAllDocuments(text) as ReturnType<typeof parseAllDocuments> &
        unknown[]) {
        expect(validate(doc.toJS()), JSON.stringify(validate.errors)).toBe(true);
      }
    }
    expect(
      validate({ kind: 'Workspace', apiVersion: 'paas.envmgmt.io/v1', metadata: { name: 'x' } }),
    ).toBe(false);
  });
});

describe('schemas/generate.mjs', () => {
  it('produces exactly the committed schema files', () => {
    const r = spawnSync(process.execPath, [`${repo}schemas/generate.mjs`, '--check'], {
      encoding: 'utf8',
    });
    expect(r.stderr).toBe('');
    expect(r.status).toBe(0);
  });
});
