import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { DIALECT_NAMES, DIALECTS } from '../../src/core/dialect.js';
import { ApiError } from '../../src/emulator/http/types.js';
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
