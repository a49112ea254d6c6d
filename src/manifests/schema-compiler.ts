import { createRequire } from 'node:module';
import type { Ajv2020, ValidateFunction } from 'ajv/dist/2020.js';
import type formatsPlugin from 'ajv-formats';
import { FORMATS } from './formats.js';
import { casesKeyword } from './schema-cases.js';

// ajv is loaded on first use, not imported: a build's generated validators (see validatorSource)
// need none of its compiler, whose loading was ≈ 40 ms of every `platctl validate`. It is
// CommonJS, so `require` returns the very module an `import` of it would.
const require = createRequire(import.meta.url);

/**
 * A new ajv instance with the options, formats and keywords the manifest schemas use; with
 * `source`, its validators keep their code for {@link validatorSource}. Loads ajv on first call.
 */
export function newSchemaCompiler(source = false): Ajv2020 {
  const { Ajv2020: Ajv } = require('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
  // ajv-formats is CommonJS: `require` gives the plugin function itself.
  const addFormats = require('ajv-formats') as typeof formatsPlugin.default;
  const ajv = new Ajv({
    allErrors: true,
    verbose: true,
    strict: true,
    strictRequired: false,
    allowUnionTypes: true,
    // ajv's optimizing pass over the generated code was a third of compiling, and compiling most
    // of a load's time; the validators decide the same without it. The build's standalone code
    // (`source`) is compiled once, where the pass costs nothing at run time and saves 10-20 % of
    // validating (100,000 documents).
    code: { optimize: source ? 1 : false, source },
  });
  addFormats(ajv, ['email', 'ipv4']);
  for (const [name, f] of Object.entries(FORMATS)) {
    if (name !== 'email' && name !== 'ipv4') ajv.addFormat(name, f.test);
  }
  // `errorMessage` is the message a person sees (VS Code shows it too); ajv only carries it.
  ajv.addKeyword({ keyword: 'errorMessage', schemaType: 'string' });
  // what a schema's chains of `if` on one property become (`withCases`)
  ajv.addKeyword(casesKeyword());
  return ajv;
}

/**
 * The validator of `schema` as a CommonJS module's source (ajv's standalone code): the very code
 * {@link newSchemaCompiler} compiles at runtime, written out so a build can ship it. Its regular
 * expressions are inlined; it requires only ajv's small runtime helpers. Pure apart from loading ajv.
 */
export function validatorSource(schema: object): string {
  const ajv = newSchemaCompiler(true);
  const standaloneCode = (require('ajv/dist/standalone/index.js') as { default: Standalone })
    .default;
  return standaloneCode(ajv, ajv.compile(schema));
}

type Standalone = (ajv: Ajv2020, validate: ValidateFunction) => string;

/**
 * The validator a {@link validatorSource} module exports, evaluated as Node evaluates a CommonJS
 * module (its `require` resolves from here, where ajv is a dependency). Runs the code given.
 */
export function instantiateValidator(source: string): ValidateFunction {
  const module = { exports: {} as unknown };
  new Function('module', 'exports', 'require', source)(module, module.exports, require);
  return module.exports as ValidateFunction;
}
