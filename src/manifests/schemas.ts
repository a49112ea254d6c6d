import { readFileSync } from 'node:fs';
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import formatsPlugin from 'ajv-formats';
import { packageRoot } from '../core/package-root.js';
import { KINDS, type Kind } from './types.js';

// ajv-formats is CommonJS; under NodeNext its default import is the function itself.
const addFormats = formatsPlugin as unknown as typeof formatsPlugin.default;

/** The file name of a kind's schema under `schemas/`: `ComputeInstance` → `compute-instance`. */
export function schemaFileOf(kind: Kind): string {
  return `${kind.replace(/([a-z])([A-Z])/g, '$1-$2').toLowerCase()}.schema.json`;
}

const CIDR =
  /^(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)(\.(25[0-5]|2[0-4]\d|1\d\d|[1-9]?\d)){3}\/(3[0-2]|[12]?\d)$/;

/** Formats the schemas use beyond ajv-formats' `email` and `ipv4`, and how to explain them. */
export const FORMATS: Record<string, { test: RegExp; means: string }> = {
  cidr: { test: CIDR, means: 'an IPv4 CIDR range such as 10.20.0.0/16' },
  'k8s-version': {
    test: /^v\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/,
    means: 'a v-prefixed Kubernetes version such as v1.29.4',
  },
  // The spec: "duration with unit suffix"; h, m and s in that order, each at most once, as
  // api/fragments/clusters.yaml (SoakDuration) accepts.
  duration: {
    test: /^(?=\d)(\d+(\.\d+)?h)?(\d+(\.\d+)?m)?(\d+(\.\d+)?s)?$/,
    means: 'a duration with unit suffixes h, m or s, such as 60s, 5m or 1h30m',
  },
  'controller-version': {
    test: /^v\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$/,
    means: 'a v-prefixed version such as v1.6.2',
  },
  email: { test: /@/, means: 'an e-mail address such as alice@acme.example' },
  ipv4: { test: /\./, means: 'an IPv4 address such as 10.20.0.1' },
};

let ajv: Ajv2020 | undefined;
const compiled = new Map<Kind, ValidateFunction>();

/** The one ajv instance, with the formats and keywords the schemas use. */
function schemaCompiler(): Ajv2020 {
  if (ajv) return ajv;
  ajv = new Ajv2020({
    allErrors: true,
    verbose: true,
    strict: true,
    strictRequired: false,
    allowUnionTypes: true,
    // ajv's optimizing pass over the generated code was a third of compiling, and compiling most
    // of a load's time; the validators decide the same without it
    code: { optimize: false },
  });
  addFormats(ajv, ['email', 'ipv4']);
  for (const [name, f] of Object.entries(FORMATS)) {
    if (name !== 'email' && name !== 'ipv4') ajv.addFormat(name, f.test);
  }
  // `errorMessage` is the message a person sees (VS Code shows it too); ajv only carries it.
  ajv.addKeyword({ keyword: 'errorMessage', schemaType: 'string' });
  return ajv;
}

/**
 * The compiled validator of `kind`. Its schema is read from `schemas/` and compiled once per
 * process, on the first document of that kind (file I/O then): compiling is most of a small
 * load's time, so kinds a load does not use cost nothing. Every error is collected
 * (`allErrors`), with the failing schema attached (`verbose`) so messages can use its
 * `errorMessage`.
 */
export function validatorOf(kind: Kind): ValidateFunction {
  let validate = compiled.get(kind);
  if (!validate) {
    const dir = new URL('schemas/', packageRoot());
    const schema = JSON.parse(readFileSync(new URL(schemaFileOf(kind), dir), 'utf8')) as object;
    validate = schemaCompiler().compile(schema);
    compiled.set(kind, validate);
  }
  return validate;
}

/** The compiled validator of every kind (compiles those not yet compiled). */
export function validators(): Map<Kind, ValidateFunction> {
  return new Map(KINDS.map((kind) => [kind, validatorOf(kind)]));
}

/** The schema errors of one document, or none. Compiles the kind's schema on first use. */
export function schemaErrors(kind: Kind, data: unknown): ErrorObject[] {
  if (!KINDS.includes(kind)) return [];
  const validate = validatorOf(kind);
  if (validate(data)) return [];
  return validate.errors ?? [];
}
