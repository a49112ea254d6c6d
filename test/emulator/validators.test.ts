import { readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { DIALECT_NAMES, DIALECTS } from '../../src/core/dialect.js';
import { generatedChecksDir } from '../../src/emulator/http/generated-checks.js';
import { ApiError } from '../../src/emulator/http/types.js';
import { checkModules, compileValidators } from '../../src/emulator/http/validation.js';
import { compiledApi } from '../../src/emulator/openapi/compiled-api.js';
import { DEFAULT_GROUPS } from '../../src/emulator/openapi/load-document.js';

/** Runs `check`: a 400 for the dummy input is fine, anything else (a schema that cannot compile) is not. */
function tries(check: () => void): string {
  try {
    check();
    return 'ok';
  } catch (err) {
    if (err instanceof ApiError && err.status === 400) return 'refused';
    throw err;
  }
}

describe('the emulator validators, compiled when first asked for', () => {
  for (const name of DIALECT_NAMES) {
    it(`compiles every operation of the ${name} dialect, and refuses what its schemas refuse`, () => {
      const api = compiledApi(DEFAULT_GROUPS, DIALECTS[name]);
      expect(api.operations.length).toBeGreaterThan(20);
      for (const op of api.operations) {
        const v = api.validators.get(op.operationId);
        expect(v, op.operationId).toBeDefined();
        tries(() => v!.params({}));
        tries(() => v!.query({}));
        tries(() => v!.body({}));
      }
      // every schema is a valid JSON Schema (the emulator's own Ajv no longer checks at start)
      const meta = new Ajv2020({ strict: false });
      const schemas: [string, unknown][] = Object.entries(api.doc.components.schemas ?? {});
      for (const op of api.operations) {
        const rb = op.op.requestBody as
          | { content?: Record<string, { schema?: unknown }> }
          | undefined;
        const body = rb?.content?.['application/json']?.schema;
        if (body) schemas.push([`${op.operationId} body`, body]);
        for (const p of op.parameters)
          if (p.schema) schemas.push([`${op.operationId} ${p.name}`, p.schema]);
      }
      expect(schemas.length).toBeGreaterThan(20);
      for (const [where, schema] of schemas) {
        expect(meta.validateSchema(schema as object), `${where}: ${meta.errorsText()}`).toBe(true);
      }
      // a body of the wrong type is refused by an operation that takes one, once compiled
      const withBody = api.operations.find(
        (o) => (o.op.requestBody as { content?: object } | undefined)?.content,
      );
      expect(withBody).toBeDefined();
      expect(tries(() => api.validators.get(withBody!.operationId)!.body('not an object'))).toBe(
        'refused',
      );
    });
  }
});

/** What a check did with `input`: what it left of it, or the 400 it answered. */
function outcome(check: (input: never) => void, input: unknown): unknown {
  const data = structuredClone(input);
  try {
    check(data as never);
    return { ok: data };
  } catch (err) {
    if (!(err instanceof ApiError)) throw err;
    return { status: err.status, code: err.code, message: err.message, details: err.details };
  }
}

const INPUTS: unknown[] = [
  {},
  { limit: 'abc', offset: '-1', name: 7, q: '' },
  { limit: '5', offset: '0', name: 'a b', id: 'x'.repeat(300) },
  'not an object',
  { metadata: { name: 'ok', project: 'p' }, spec: { type: 'nope' }, extra: [1, null] },
];

describe("the build's checks (ajv standalone code in dist/api/checks/)", () => {
  for (const name of DIALECT_NAMES) {
    it(`are the very code of the ${name} dialect's checks and decide as checks compiled now`, () => {
      const api = compiledApi(DEFAULT_GROUPS, DIALECTS[name]);
      // the build wrote these very modules: an emulator of this document uses them
      for (const { file, source } of checkModules(api.doc, api.operations)) {
        expect(readFileSync(new URL(file, generatedChecksDir()), 'utf8'), file).toBe(source);
      }
      // one more component gives the document another key: its checks are compiled now
      const schemas = { ...api.doc.components.schemas, Unused: { type: 'object' } };
      const doc = { ...api.doc, components: { ...api.doc.components, schemas } };
      const now = compileValidators(doc, api.operations);
      for (const op of api.operations) {
        const [built, compiled] = [api.validators, now].map((v) => v.get(op.operationId)!);
        for (const part of ['params', 'query', 'body'] as const) {
          for (const input of INPUTS) {
            expect(outcome(built![part], input), `${op.operationId} ${part}`).toEqual(
              outcome(compiled![part], input),
            );
          }
        }
      }
    });
  }

  it('a component edited since the build is checked as edited, never by the stale build', () => {
    const api = compiledApi(DEFAULT_GROUPS, DIALECTS.spec);
    const op = api.operations.find((o) =>
      String(
        (o.op.requestBody as { content?: Record<string, { schema?: { $ref?: string } }> })
          ?.content?.['application/json']?.schema?.$ref,
      ).startsWith('#/components/schemas/'),
    )!;
    const ref = (op.op.requestBody as { content: Record<string, { schema: { $ref: string } }> })
      .content['application/json']!.schema.$ref;
    const component = ref.slice('#/components/schemas/'.length);
    expect(outcome(api.validators.get(op.operationId)!.body, 'edited')).toMatchObject({
      status: 400,
    });
    const schemas = { ...api.doc.components.schemas, [component]: { const: 'edited' } };
    const doc = { ...api.doc, components: { ...api.doc.components, schemas } };
    const edited = compileValidators(doc, api.operations).get(op.operationId)!;
    expect(outcome(edited.body, 'edited')).toEqual({ ok: 'edited' });
    expect(outcome(edited.body, {})).toMatchObject({ status: 400 });
  });
});
