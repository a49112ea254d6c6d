import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { loadAndValidate } from '../../src/manifests/index.js';
import { parseSource } from '../../src/manifests/parse.js';
import { CASES_KEYWORD, withCases } from '../../src/manifests/schema-cases.js';
import { newSchemaCompiler } from '../../src/manifests/schema-compiler.js';
import { schemaDiagnostics } from '../../src/manifests/schema-messages.js';
import { schemaFileOf } from '../../src/manifests/schemas.js';
import { KINDS, type Kind } from '../../src/model/manifest.js';

// The validators compile each kind's schema with its chains of `if` on one property (a variable's
// rule by its name, an instance's variables by its compute type) as one keyword that picks the
// `then` (`schema-cases.ts`). They must give the errors the schema as written gives, but for the
// `if` errors (which diagnostics drop) and the schema paths: the same diagnostics.

const repo = new URL('../../', import.meta.url);
const schemaOf = (file: string): Record<string, unknown> =>
  JSON.parse(readFileSync(new URL(`schemas/${file}`, repo), 'utf8')) as Record<string, unknown>;
// one compiler each: ajv keeps a schema by its $id
const [asWritten, asCases] = [newSchemaCompiler(), newSchemaCompiler()];
const pairs = KINDS.map((kind) => {
  const schema = schemaOf(schemaFileOf(kind));
  const written = asWritten.compile(schema);
  return { kind, written, cased: asCases.compile(withCases(schema) as object) };
});

/**
 * ajv's errors without the `if` ones and the schema paths (they name the keyword used), the
 * schemas an error carries (which diagnostics read messages and field names from) as cases.
 */
const casedSchemas = new Map<unknown, unknown>();
const asCasesOf = (schema: unknown) => {
  if (!casedSchemas.has(schema)) casedSchemas.set(schema, withCases(schema));
  return casedSchemas.get(schema);
};
const answer = (validate: ValidateFunction, data: unknown) => ({
  valid: validate(data),
  errors: (validate.errors ?? [])
    .filter((e) => e.keyword !== 'if')
    .map(({ schemaPath: _, schema, parentSchema, ...e }) => ({
      ...e,
      schema: asCasesOf(schema),
      parentSchema: asCasesOf(parentSchema),
    })),
});

function expectSameAnswers(data: unknown): void {
  for (const { kind, written, cased } of pairs) {
    expect(answer(cased, data), kind).toEqual(answer(written, data));
  }
}

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
        return null;
      }
    });
}

const NAMES = [
  ...['assign_public_ip', 'node_os_image', 'Contract Term', 'Security Policies', 'hss_storage'],
  ...['Infiniband Configuration', 'NVAIE License', 'Cluster Kubernetes Version', 'OS'],
  ...['H100 Worker Nodes', 'L40 Worker Nodes', 'Master Nodes', 'Master Node SKU'],
  ...['Enable Infiniband Configuration', 'Enable NVAIE License', 'Default VPC Name'],
  ...['Default Subnet CIDR', 'Default Subnet Gateway', 'Public IP Enabled', 'other', ''],
];
const VALUES = ['true', 'false', 'True', '12', '7', '2', 'x', 'v1.29.4', '1.29', '10.0.0.0/16'];

/** A variable as people get it wrong: any name, value, valueType, extra field, or no object. */
const variable = fc.oneof(
  fc.record(
    {
      name: fc.oneof(fc.constantFrom(...NAMES), fc.jsonValue({ maxDepth: 1 })),
      value: fc.oneof(fc.constantFrom(...VALUES), fc.jsonValue({ maxDepth: 1 })),
      valueType: fc.constantFrom('text', 'json', 'xml', 3),
      options: fc.constantFrom({}, 'x'),
      extra: fc.constant(1),
    },
    { requiredKeys: [] },
  ),
  fc.jsonValue({ maxDepth: 1 }),
);

describe('chains of if on one property, as cases of it', () => {
  it('are found in the ComputeInstance and Service schemas, and nothing else is changed', () => {
    const written = JSON.stringify(pairs.map(({ kind }) => schemaOf(schemaFileOf(kind))));
    const cased = pairs.map(({ kind }) => withCases(schemaOf(schemaFileOf(kind))));
    const chains = JSON.stringify(cased).split(`"${CASES_KEYWORD}"`).length - 1;
    expect(chains).toBe(4); // compute types; bare-metal and k8s variables; a VPC's variables
    expect(JSON.stringify(cased)).not.toContain('"if"');
    expect(written).toContain('"if"'); // the schemas editors read keep theirs
    // a chain of something else than one property's constants stays (the notifications' providers)
    const notifications = schemaOf('notifications.schema.json');
    expect(withCases(notifications)).toEqual(notifications);
  });

  it('give the errors of the schema as written, for every fixture and example against every kind', () => {
    const docs = [...documentsUnder('test/manifests/fixtures/'), ...documentsUnder('examples/')];
    expect(docs.length).toBeGreaterThan(40);
    for (const data of docs) expectSameAnswers(data);
  });

  it('give the errors of the schema as written, for arbitrary variables and compute types', () => {
    const doc = fc.record({
      apiVersion: fc.constant('paas.envmgmt.io/v1'),
      kind: fc.constantFrom<Kind>('ComputeInstance', 'Service'),
      metadata: fc.constant({ name: 'a', project: 'p', workspace: 'w' }),
      spec: fc.oneof(
        fc.record(
          {
            computeType: fc.oneof(fc.constantFrom('baremetal', 'k8s', 'vm', 'x'), fc.jsonValue()),
            computeProfile: fc.constant({ name: 'p' }),
            serviceProfile: fc.constant({ name: 'vpc' }),
            serviceType: fc.constant('custom'),
            variables: fc.oneof(
              fc.array(variable, { maxLength: 5 }),
              fc.jsonValue({ maxDepth: 1 }),
            ),
          },
          { requiredKeys: [] },
        ),
        fc.jsonValue({ maxDepth: 2 }),
      ),
    });
    fc.assert(fc.property(doc, expectSameAnswers), { numRuns: 800 });
  });

  it('give the same diagnostics, positions included', () => {
    const text = readFileSync(
      fileURLToPath(new URL('fixtures/bare-metal-variables/instances.yaml', import.meta.url)),
      'utf8',
    );
    const { docs } = parseSource({ file: 'i.yaml', text }, () => undefined, {
      maxAliasCount: 100,
      maxDepth: 64,
    });
    const ci = pairs.find((p) => p.kind === 'ComputeInstance')!;
    let checked = 0;
    for (const doc of docs) {
      const of = (v: ValidateFunction) => (v(doc.data) ? [] : (v.errors as ErrorObject[]));
      const written = schemaDiagnostics(doc, of(ci.written), 'k');
      expect(schemaDiagnostics(doc, of(ci.cased), 'k')).toEqual(written);
      checked += written.length;
    }
    expect(checked).toBeGreaterThan(5);
  });
});

describe('the kind, as validate dispatches on it before any schema', () => {
  const diagnostics = async (text: string) =>
    (await loadAndValidate({ paths: ['-'], stdin: text, env: {} })).diagnostics.map(
      (d) => `${d.line}:${d.col} ${d.code} ${d.path ?? ''}: ${d.message}`,
    );
  const body = 'metadata:\n  name: a\n  project: p\nspec:\n  variables: []\n';

  it('an unknown kind, a missing one and a wrong apiVersion say what they said', async () => {
    expect(await diagnostics(`apiVersion: paas.envmgmt.io/v1\nkind: Servic\n${body}`)).toEqual([
      '2:7 unknown-kind kind: unknown kind Servic (did you mean Service?)',
    ]);
    expect(await diagnostics(`apiVersion: paas.envmgmt.io/v1\n${body}`)).toEqual([
      `1:1 missing-field kind: required field kind is missing; one of ${KINDS.join(', ')}`,
    ]);
    const wrong = `apiVersion: platctl.io/v1alpha1\nkind: Service\n${body}`;
    expect(await diagnostics(wrong)).toEqual([
      '1:13 api-version apiVersion: Service must have apiVersion paas.envmgmt.io/v1, not platctl.io/v1alpha1',
      '6:1 missing-field spec.serviceProfile: required field serviceProfile is missing',
      '6:1 missing-field spec.serviceType: required field serviceType is missing',
    ]);
  });
});
