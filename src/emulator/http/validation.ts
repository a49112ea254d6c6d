import { createRequire } from 'node:module';
import type { Ajv2020, ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import type formatsPlugin from 'ajv-formats';
import type { OpenApiDocument, OperationEntry } from '../openapi/load-document.js';
import { checkKey, checkSetKey, generatedChecks } from './generated-checks.js';
import { ApiError } from './types.js';

// ajv is loaded when a check must be compiled, not imported: the build's checks
// (generated-checks.ts) need none of its compiler, whose loading was ≈ 25 ms of an emulator's
// start. It is CommonJS, so `require` returns the very module an `import` of it would.
const require = createRequire(import.meta.url);

const SCHEMA_BASE = 'https://platctl.local/schemas/';

/** The compiled checks of one operation; each throws a 400 {@link ApiError} naming the fields. */
export interface OperationValidator {
  /** Validates and coerces path parameters in place. */
  params(params: Record<string, unknown>): void;
  /** Validates and coerces the query in place, applying the document's defaults. */
  query(query: Record<string, unknown>): void;
  /** Validates the parsed body (`undefined` when none was sent). */
  body(body: unknown): void;
}

/**
 * A validator for every operation, each made when its operation is first asked for (pure apart
 * from CPU and reading the build's checks): a process that starts an emulator pays for the
 * operations it serves, not for all of them (compiling every one was ≈ 0.4 s of each emulator's
 * start; tests and CI start about a hundred). A check is the build's standalone code of that very
 * schema when the build wrote one for these components ({@link generatedChecks}), else compiled
 * now. `test/emulator/validators.test.ts` makes every one.
 */
export function compileValidators(
  doc: OpenApiDocument,
  operations: readonly OperationEntry[],
): Map<string, OperationValidator> {
  const makers: Partial<Record<'coercing' | 'strict', (schema: object) => ValidateFunction>> = {};
  const maker = (coerce: boolean) => {
    const kind = coerce ? 'coercing' : 'strict';
    makers[kind] ??= checkMaker(doc, coerce);
    return makers[kind];
  };
  const out = new Map<string, OperationValidator>();
  for (const entry of operations) {
    const rb = entry.op.requestBody as { required?: boolean } | undefined;
    let checks: { params: ValidateFunction; query: ValidateFunction; body?: ValidateFunction };
    const compiled = () => {
      if (!checks) {
        const schemas = operationSchemas(entry);
        checks = {
          params: maker(true)(schemas.params),
          query: maker(true)(schemas.query),
          ...(schemas.body ? { body: maker(false)(schemas.body) } : {}),
        };
      }
      return checks;
    };
    out.set(entry.operationId, {
      params: (p) => run(compiled().params, p),
      query: (q) => run(compiled().query, q),
      body: (b) => {
        if (b === undefined) {
          if (rb?.required)
            throw invalid('request body is required', [{ field: 'body', message: 'is required' }]);
          return;
        }
        const body = compiled().body;
        if (body) run(body, b);
      },
    });
  }
  return out;
}

/**
 * Makes the checks of one kind (coercing path and query, or strict bodies): the build's when it
 * has that schema's, else compiled by an ajv instance made on first need.
 */
function checkMaker(doc: OpenApiDocument, coerce: boolean): (schema: object) => ValidateFunction {
  const built = generatedChecks(checkSetKey(ajvOptions(coerce), doc.components.schemas ?? {}));
  let ajv: Ajv2020 | undefined;
  return (schema) => {
    const check = built[checkKey(schema)];
    if (check) return check;
    ajv ??= newAjv(doc, coerce);
    return ajv.compile(schema);
  };
}

/**
 * The schemas of an operation's checks: its path parameters and query (checked with coercion
 * and defaults) and its JSON body (strict), component references pointing at the ids the
 * components are registered under. Pure.
 */
function operationSchemas(entry: OperationEntry): {
  params: object;
  query: object;
  body: object | undefined;
} {
  const rb = entry.op.requestBody as { content?: Record<string, { schema?: unknown }> } | undefined;
  const bodySchema = rb?.content?.['application/json']?.schema;
  return {
    params: paramsSchema(entry, 'path'),
    query: paramsSchema(entry, 'query'),
    body: bodySchema ? (rewriteRefs(bodySchema) as object) : undefined,
  };
}

/** The compiler's options: what a build's checks were made with is part of their key. */
function ajvOptions(coerce: boolean) {
  return {
    allErrors: true,
    strict: false,
    coerceTypes: coerce,
    useDefaults: coerce,
    // the document is the emulator's own: checking each schema against the meta-schema compiled
    // the meta-schema in every process (≈ 0.2 s of an emulator's start);
    // test/emulator/validators.test.ts checks them all against it instead
    validateSchema: false,
  };
}

/** An ajv instance with every component schema; with `source`, for ajv's standalone code. */
function newAjv(doc: OpenApiDocument, coerce: boolean, source = false): Ajv2020 {
  const { Ajv2020: Ajv } = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
  // ajv-formats is CommonJS: `require` gives the plugin function itself.
  const addFormats = require('ajv-formats') as typeof formatsPlugin.default;
  const ajv = new Ajv({ ...ajvOptions(coerce), ...(source ? { code: { source } } : {}) });
  addFormats(ajv);
  for (const [name, schema] of Object.entries(doc.components.schemas ?? {})) {
    ajv.addSchema({ ...(rewriteRefs(schema) as object), $id: SCHEMA_BASE + name });
  }
  return ajv;
}

/**
 * The build's checks of `doc`'s operations (`scripts/build-api-checks.mjs`): for the coercing
 * and the strict kind, a module file name ({@link checkSetKey}) and its CommonJS source, ajv's
 * standalone code exporting each distinct schema's check under its {@link checkKey}. Loads ajv.
 */
export function checkModules(
  doc: OpenApiDocument,
  operations: readonly OperationEntry[],
): { file: string; source: string }[] {
  const standaloneCode = (
    require('ajv/dist/standalone/index.js') as {
      default: (ajv: Ajv2020, refs: Record<string, string>) => string;
    }
  ).default;
  return [true, false].map((coerce) => {
    const ajv = newAjv(doc, coerce, true);
    const refs: Record<string, string> = {};
    for (const entry of operations) {
      const { params, query, body } = operationSchemas(entry);
      for (const schema of coerce ? [params, query] : body ? [body] : []) {
        const key = checkKey(schema);
        if (refs[key]) continue;
        refs[key] = `${SCHEMA_BASE}checks/${key}`;
        ajv.addSchema({ ...schema, $id: refs[key] });
      }
    }
    const key = checkSetKey(ajvOptions(coerce), doc.components.schemas ?? {});
    return { file: `${key}.cjs`, source: standaloneCode(ajv, refs) };
  });
}

function paramsSchema(entry: OperationEntry, where: 'path' | 'query'): object {
  const params = entry.parameters.filter((p) => p.in === where);
  return {
    type: 'object',
    properties: Object.fromEntries(params.map((p) => [p.name, rewriteRefs(p.schema ?? {})])),
    required: params.filter((p) => p.required || where === 'path').map((p) => p.name),
  };
}

/** Deep copy of a schema with `#/components/schemas/X` refs pointing at the registered ids. */
function rewriteRefs(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(rewriteRefs);
  if (schema === null || typeof schema !== 'object') return schema;
  return Object.fromEntries(
    Object.entries(schema).map(([k, v]) => [
      k,
      k === '$ref' && typeof v === 'string' && v.startsWith('#/components/schemas/')
        ? SCHEMA_BASE + v.slice('#/components/schemas/'.length)
        : rewriteRefs(v),
    ]),
  );
}

function run(check: ValidateFunction, data: unknown): void {
  if (check(data)) return;
  const details = (check.errors ?? []).map(toDetail);
  const unique = details.filter(
    (d, i) => details.findIndex((o) => o.field === d.field && o.message === d.message) === i,
  );
  const first = unique[0];
  throw invalid(first ? `${first.field} ${first.message}` : 'invalid request', unique);
}

/** `/spec/variables/2/value` → `spec.variables[2].value`; a missing property is named itself. */
function fieldName(err: ErrorObject): string {
  const parts = err.instancePath
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  if (err.keyword === 'required') parts.push(String(err.params.missingProperty));
  if (err.keyword === 'additionalProperties') parts.push(String(err.params.additionalProperty));
  let out = '';
  for (const p of parts) out += /^\d+$/.test(p) ? `[${p}]` : out ? `.${p}` : p;
  return out || 'body';
}

function toDetail(err: ErrorObject): { field: string; message: string } {
  const allowed =
    err.keyword === 'enum' ? `: ${(err.params.allowedValues as unknown[]).join(', ')}` : '';
  return { field: fieldName(err), message: `${err.message ?? 'is invalid'}${allowed}` };
}

function invalid(message: string, details: { field: string; message: string }[]): ApiError {
  return new ApiError(400, 'invalid_request', message, details);
}
