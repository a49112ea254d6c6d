import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import addFormatsPlugin from 'ajv-formats';
import type { OpenApiDocument, OperationEntry } from '../openapi/load-document.js';
import { ApiError } from './types.js';

// ajv-formats is CommonJS: under NodeNext its default import is the module object.
type FormatsFn = (ajv: Ajv2020) => unknown;
const addFormats = ((addFormatsPlugin as unknown as { default?: FormatsFn }).default ??
  addFormatsPlugin) as unknown as FormatsFn;

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
 * A validator for every operation, each compiled when its operation is first asked for (pure
 * apart from CPU): a process that starts an emulator pays for the operations it serves, not for
 * all of them (compiling every one was ≈ 0.4 s of each emulator's start; tests and CI start
 * about a hundred). `test/emulator/validators.test.ts` compiles every one.
 */
export function compileValidators(
  doc: OpenApiDocument,
  operations: readonly OperationEntry[],
): Map<string, OperationValidator> {
  let ajvs: { coercing: Ajv2020; strict: Ajv2020 } | undefined;
  const instances = () => {
    ajvs ??= { coercing: newAjv(doc, true), strict: newAjv(doc, false) };
    return ajvs;
  };
  const out = new Map<string, OperationValidator>();
  for (const entry of operations) {
    const rb = entry.op.requestBody as
      | { required?: boolean; content?: Record<string, { schema?: unknown }> }
      | undefined;
    let checks: ReturnType<typeof compileOperation> | undefined;
    const compiled = () => {
      checks ??= compileOperation(instances(), entry, rb);
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

/** The compiled checks of one operation's path parameters, query and JSON body. */
function compileOperation(
  ajvs: { coercing: Ajv2020; strict: Ajv2020 },
  entry: OperationEntry,
  rb: { content?: Record<string, { schema?: unknown }> } | undefined,
) {
  const bodySchema = rb?.content?.['application/json']?.schema;
  return {
    params: compileParams(ajvs.coercing, entry, 'path'),
    query: compileParams(ajvs.coercing, entry, 'query'),
    body: bodySchema ? ajvs.strict.compile(rewriteRefs(bodySchema) as object) : undefined,
  };
}

function newAjv(doc: OpenApiDocument, coerce: boolean): Ajv2020 {
  const ajv = new Ajv2020({
    allErrors: true,
    strict: false,
    coerceTypes: coerce,
    useDefaults: coerce,
    // the document is the emulator's own: checking each schema against the meta-schema compiled
    // the meta-schema in every process (≈ 0.2 s of an emulator's start);
    // test/emulator/validators.test.ts checks them all against it instead
    validateSchema: false,
  });
  addFormats(ajv);
  for (const [name, schema] of Object.entries(doc.components.schemas ?? {})) {
    ajv.addSchema({ ...(rewriteRefs(schema) as object), $id: SCHEMA_BASE + name });
  }
  return ajv;
}

function compileParams(
  ajv: Ajv2020,
  entry: OperationEntry,
  where: 'path' | 'query',
): ValidateFunction {
  const params = entry.parameters.filter((p) => p.in === where);
  return ajv.compile({
    type: 'object',
    properties: Object.fromEntries(params.map((p) => [p.name, rewriteRefs(p.schema ?? {})])),
    required: params.filter((p) => p.required || where === 'path').map((p) => p.name),
  });
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
