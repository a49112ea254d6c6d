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

let compiled: Map<Kind, ValidateFunction> | undefined;

/**
 * The compiled validator of each kind. The schemas are read from `schemas/` and compiled once per
 * process (the first call does file I/O); every error is collected (`allErrors`), with the failing
 * schema attached (`verbose`) so messages can use its `errorMessage`.
 */
export function validators(): Map<Kind, ValidateFunction> {
  if (compiled) return compiled;
  const ajv = new Ajv2020({
    allErrors: true,
    verbose: true,
    strict: true,
    strictRequired: false,
    allowUnionTypes: true,
  });
  addFormats(ajv, ['email', 'ipv4']);
  for (const [name, f] of Object.entries(FORMATS)) {
    if (name !== 'email' && name !== 'ipv4') ajv.addFormat(name, f.test);
  }
  // `errorMessage` is the message a person sees (VS Code shows it too); ajv only carries it.
  ajv.addKeyword({ keyword: 'errorMessage', schemaType: 'string' });
  const dir = new URL('schemas/', packageRoot());
  const map = new Map<Kind, ValidateFunction>();
  for (const kind of KINDS) {
    const schema = JSON.parse(readFileSync(new URL(schemaFileOf(kind), dir), 'utf8')) as object;
    map.set(kind, ajv.compile(schema));
  }
  compiled = map;
  return map;
}

/** The schema errors of one document, or none. Compiles the schemas on first use. */
export function schemaErrors(kind: Kind, data: unknown): ErrorObject[] {
  const validate = validators().get(kind);
  if (!validate || validate(data)) return [];
  return validate.errors ?? [];
}
