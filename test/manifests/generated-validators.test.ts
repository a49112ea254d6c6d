import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import fc from 'fast-check';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { formatDiagnostics, loadAndValidate } from '../../src/manifests/index.js';
import {
  compiledSchema,
  generatedValidator,
  generatedValidatorFileOf,
  loadValidator,
  schemaFileOf,
} from '../../src/manifests/schemas.js';
import { KINDS, type Kind } from '../../src/model/manifest.js';

// The build ships each kind's validator as ajv standalone code (`npm run build` writes it to
// dist/); running from src/ compiles the schemas instead. These tests hold the two to the same
// answers: the same ajv errors for any document, hence the same diagnostics.

// Everything the loader compiles in this file goes through the generated code: the golden
// fixtures below then check the diagnostics of the build's path.
const viaGenerated = vi.hoisted(() => ({ kinds: 0 }));
vi.mock('../../src/manifests/schema-compiler.js', async (original) => {
  const real = await original<typeof import('../../src/manifests/schema-compiler.js')>();
  return {
    ...real,
    newSchemaCompiler: (source?: boolean) => {
      const ajv = real.newSchemaCompiler(source);
      return Object.assign(Object.create(ajv) as typeof ajv, {
        compile: (schema: object) => {
          viaGenerated.kinds++;
          return real.instantiateValidator(real.validatorSource(schema));
        },
      });
    },
  };
});
const { newSchemaCompiler: realCompiler } = await vi.importActual<
  typeof import('../../src/manifests/schema-compiler.js')
>('../../src/manifests/schema-compiler.js');

const repo = new URL('../../', import.meta.url);
const schemaText = (kind: Kind) =>
  readFileSync(new URL(`schemas/${schemaFileOf(kind)}`, repo), 'utf8');
const dir = mkdtempSync(join(tmpdir(), 'platctl-validators-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const dirUrl = pathToFileURL(`${dir}/`);
for (const kind of KINDS) {
  writeFileSync(generatedValidatorFileOf(kind, dirUrl), generatedValidator(kind, schemaText(kind)));
}
const compiler = realCompiler();
const both = KINDS.map((kind) => ({
  kind,
  generated: loadValidator(kind, schemaText(kind), dirUrl),
  compiled: compiler.compile(compiledSchema(schemaText(kind))),
}));

/** Every YAML document under a folder of the repository, as data. */
function documentsUnder(folder: string): unknown[] {
  const root = fileURLToPath(new URL(folder, repo));
  return readdirSync(root, { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.ya?ml$/.test(f))
    .flatMap((f) => parseAllDocuments(readFileSync(join(root, f), 'utf8')) as { toJS(): unknown }[])
    .map((d) => {
      try {
        return d.toJS();
      } catch {
        return null; // an alias bomb: not a document a validator sees
      }
    });
}

/** The same verdict and the same errors (keyword, paths, params, messages, schemas, data). */
function expectSameAnswers(data: unknown): void {
  for (const { kind, generated, compiled } of both) {
    const ok = generated.validate(data);
    expect(compiled(data), kind).toBe(ok);
    expect(generated.validate.errors, kind).toEqual(compiled.errors);
  }
}

describe('generated validators', () => {
  it('are used while the schema is the one they were generated from, and not after', () => {
    for (const { generated } of both) expect(generated.generated).toBe(true);
    const edited = `${schemaText('User')} `;
    expect(loadValidator('User', edited, dirUrl).generated).toBe(false);
    expect(loadValidator('User', schemaText('User'), new URL('missing/', dirUrl)).generated).toBe(
      false,
    );
  });

  it('give the errors compiling gives, for every fixture and example against every kind', () => {
    const docs = [...documentsUnder('test/manifests/fixtures/'), ...documentsUnder('examples/')];
    expect(docs.length).toBeGreaterThan(40);
    for (const data of docs) expectSameAnswers(data);
  });

  it('give the errors compiling gives, for arbitrary manifest-like documents', () => {
    const kind = fc.constantFrom<string>(...KINDS);
    const value = fc.oneof(fc.jsonValue({ maxDepth: 2 }), fc.constantFrom('v1.29.4', '10.0.0.0/8'));
    const doc = fc.record(
      {
        apiVersion: fc.constantFrom('paas.envmgmt.io/v1', 'platctl.io/v1alpha1', 'x/v3'),
        kind,
        metadata: fc.oneof(
          fc.record(
            { name: fc.string(), project: fc.string(), workspace: value, annotations: value },
            { requiredKeys: [] },
          ),
          value,
        ),
        spec: fc.oneof(
          fc.record({ variables: fc.array(fc.record({ name: fc.string(), value })) }),
          fc.dictionary(fc.string({ maxLength: 12 }), value, { maxKeys: 4 }),
          value,
        ),
      },
      { requiredKeys: ['kind'] },
    );
    fc.assert(fc.property(doc, expectSameAnswers), { numRuns: 300 });
  });

  it('give the golden diagnostics', async () => {
    const root = fileURLToPath(new URL('fixtures/', import.meta.url));
    const cases = readdirSync(root, { withFileTypes: true }).filter((d) => d.isDirectory());
    expect(cases.length).toBeGreaterThanOrEqual(8);
    for (const { name } of cases) {
      const folder = `${root}${name}`;
      const envFile = join(folder, 'env.json');
      const env = readdirSync(folder).includes('env.json')
        ? (JSON.parse(readFileSync(envFile, 'utf8')) as Record<string, string>)
        : {};
      const r = await loadAndValidate({ paths: [folder], env });
      const actual = formatDiagnostics(r.diagnostics, 'human').split(`${folder}/`).join('');
      expect(actual, name).toBe(readFileSync(join(folder, 'expected.txt'), 'utf8'));
    }
    expect(viaGenerated.kinds).toBeGreaterThanOrEqual(5);
  });
});
