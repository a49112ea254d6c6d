import { createRequire } from 'node:module';
import type { CodeKeywordDefinition, KeywordCxt } from 'ajv/dist/2020.js';

// ajv's code generator is loaded when a schema is compiled, as the compiler itself is
// (`schema-compiler.ts`): a build's generated validators need none of it.
const require = createRequire(import.meta.url);

/**
 * The keyword a chain of `if`/`then` on one property's value becomes ({@link withCases}):
 * `{property, cases: {value: then}}`.
 */
export const CASES_KEYWORD = 'platctlCases';

type SchemaObject = Record<string, unknown>;
interface Cases {
  property: string;
  cases: Record<string, SchemaObject>;
}

const isObject = (x: unknown): x is SchemaObject =>
  x !== null && typeof x === 'object' && !Array.isArray(x);
const keysAre = (x: SchemaObject, ...keys: string[]) =>
  Object.keys(x).length === keys.length && keys.every((k) => Object.hasOwn(x, k));

/**
 * The keywords a schema holding such a chain may have besides its `allOf`, for the chain to
 * become {@link CASES_KEYWORD}: none that ajv evaluates in the same group as `allOf` (the
 * keywords of any type: `not`, `anyOf`, `if`, `$ref`, ...), so that the errors keep their order.
 */
const HOST_KEYWORDS = new Set([
  'type',
  'additionalProperties',
  'required',
  'properties',
  'allOf',
  'description',
  'title',
  'errorMessage',
]);

/** `{if: {properties: {P: {const: 'C'}}, required: [P]}, then: {properties: ...}}` as P and C. */
function caseOf(
  entry: unknown,
): { property: string; value: string; then: SchemaObject } | undefined {
  if (!isObject(entry) || !keysAre(entry, 'if', 'then')) return undefined;
  const { if: test, then } = entry;
  if (!isObject(test) || !keysAre(test, 'properties', 'required')) return undefined;
  if (!isObject(then) || !keysAre(then, 'properties')) return undefined;
  const { properties, required } = test;
  if (!isObject(properties) || Object.keys(properties).length !== 1) return undefined;
  const property = Object.keys(properties)[0]!;
  const want = properties[property];
  if (!Array.isArray(required) || required.length !== 1 || required[0] !== property)
    return undefined;
  if (!isObject(want) || !keysAre(want, 'const') || typeof want.const !== 'string')
    return undefined;
  return { property, value: want.const, then };
}

/** The chain of `allOf` as cases of one property, or undefined when it is not such a chain. */
function casesOf(allOf: unknown): Cases | undefined {
  if (!Array.isArray(allOf) || allOf.length < 2) return undefined;
  const found = allOf.map(caseOf);
  const property = found[0]?.property;
  const cases: Record<string, SchemaObject> = {};
  for (const c of found) {
    if (c === undefined || c.property !== property || Object.hasOwn(cases, c.value))
      return undefined;
    cases[c.value] = c.then;
  }
  return property === undefined ? undefined : { property, cases };
}

/**
 * `schema` with each `allOf` that is a chain of `if` a property holds one string `then` some
 * `properties` (a variable's rule by its name, an instance's variables by its compute type)
 * written as one {@link CASES_KEYWORD}, which tests the property once and applies the one `then`
 * it names. ajv evaluates every `if` of a chain for every item, pushing and dropping an error
 * object for each that fails: 85 % of a ComputeInstance's validation on the 100,000-document set.
 * The errors are the same but for the `if` ones (which diagnostics drop) and their `schemaPath`:
 * a `then` of `properties` alone says nothing about data that is not an object, nor does the
 * keyword. Pure: a copy, the schemas in `schemas/` (which editors read) stay as they are.
 */
export function withCases(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(withCases);
  if (!isObject(schema)) return schema;
  const out: SchemaObject = {};
  for (const [k, v] of Object.entries(schema)) out[k] = withCases(v);
  const cases = casesOf(out.allOf);
  if (cases && Object.keys(out).every((k) => HOST_KEYWORDS.has(k))) {
    delete out.allOf;
    out[CASES_KEYWORD] = cases;
  }
  return out;
}

/** The ajv keyword {@link withCases} writes: code that picks the `then` by the property's value. */
export function casesKeyword(): CodeKeywordDefinition {
  const { _, getProperty } = require('ajv/dist/compile/codegen/index.js') as Codegen;
  const { escapeFragment } = require('ajv/dist/compile/util.js') as Util;
  return {
    keyword: CASES_KEYWORD,
    schemaType: 'object',
    code(cxt: KeywordCxt) {
      const { gen, data, it } = cxt;
      const { property, cases } = cxt.schema as Cases;
      const valid = gen.name('valid');
      // as `properties` and `required` do, the `if`s held for anything but an object
      gen.if(_`${data} && typeof ${data} == "object" && !Array.isArray(${data})`);
      const tag = gen.const('tag', _`${data}${getProperty(property)}`);
      Object.entries(cases).forEach(([value, then], i) => {
        if (i === 0) gen.if(_`${tag} === ${value}`);
        else gen.elseIf(_`${tag} === ${value}`);
        const at = `${CASES_KEYWORD}/cases/${escapeFragment(value)}`;
        cxt.subschema(
          {
            schema: then,
            schemaPath: _`${it.schemaPath}${getProperty(CASES_KEYWORD)}.cases${getProperty(value)}`,
            errSchemaPath: `${it.errSchemaPath}/${at}`,
            topSchemaRef: it.topSchemaRef,
          },
          valid,
        );
      });
      gen.endIf();
      gen.endIf();
    },
  };
}

type Codegen = typeof import('ajv/dist/compile/codegen/index.js');
type Util = typeof import('ajv/dist/compile/util.js');
