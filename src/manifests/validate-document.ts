import {
  KINDS,
  type Kind,
  type Manifest,
  manifestKey,
  PLATCTL_API_VERSION,
} from '../model/manifest.js';
import { type Diagnostic, pathToString } from './diagnostics.js';
import { FORMATS } from './formats.js';
import type { ParsedDocument } from './parse.js';
import { closest, schemaDiagnostics } from './schema-messages.js';
import { schemaErrors } from './schemas.js';

/** The API groups the envelope kinds must use (`--infra-group`, `--paas-group`). */
export interface ApiGroups {
  /** @default 'infra.k8smgmt.io' */
  infra: string;
  /** @default 'paas.envmgmt.io' */
  paas: string;
}

/** The default {@link ApiGroups}. */
export const DEFAULT_GROUPS: ApiGroups = { infra: 'infra.k8smgmt.io', paas: 'paas.envmgmt.io' };

/** The apiVersion a kind must carry under the given groups. Pure. */
function apiVersionOf(kind: Kind, groups: ApiGroups): string {
  switch (kind) {
    case 'Cluster':
      return `${groups.infra}/v3`;
    case 'Service':
    case 'Workspace':
    case 'ComputeInstance':
      return `${groups.paas}/v1`;
    default:
      return PLATCTL_API_VERSION;
  }
}

/**
 * Validates one parsed document against its kind's schema and the checks a schema cannot express
 * (the configured API group, JSON-valued variables, a variable set twice). Returns the manifest
 * only when the document has no error; `key` whenever kind and name are readable. Pure apart from compiling the schemas on first use.
 */
export function validateDocument(
  doc: ParsedDocument,
  groups: ApiGroups,
): { manifest?: Manifest; key?: string; diagnostics: Diagnostic[] } {
  const data = doc.data;
  if (data === null || typeof data !== 'object' || Array.isArray(data)) {
    const message = 'a manifest must be a mapping with apiVersion, kind, metadata and spec';
    return { diagnostics: [{ severity: 'error', code: 'not-a-mapping', message, ...doc.source }] };
  }
  const kind = (data as { kind?: unknown }).kind;
  if (typeof kind !== 'string' || !(KINDS as readonly string[]).includes(kind)) {
    const hint = typeof kind === 'string' ? closest(kind, KINDS) : undefined;
    const message =
      kind === undefined
        ? `required field kind is missing; one of ${KINDS.join(', ')}`
        : `unknown kind ${String(kind)}${hint ? ` (did you mean ${hint}?)` : `; one of ${KINDS.join(', ')}`}`;
    const code = kind === undefined ? 'missing-field' : 'unknown-kind';
    return { diagnostics: [{ severity: 'error', code, message, ...at(doc, ['kind']) }] };
  }
  const k = kind as Kind;
  const meta = (data as { metadata?: Record<string, unknown> }).metadata;
  const key =
    typeof meta?.name === 'string'
      ? manifestKey(data as Manifest) // identity is computable even when other fields are wrong
      : undefined;
  const errors = schemaErrors(k, data);
  const diagnostics = errors.length > 0 ? schemaDiagnostics(doc, errors, key) : [];

  const apiVersion = (data as { apiVersion?: unknown }).apiVersion;
  const want = apiVersionOf(k, groups);
  if (typeof apiVersion === 'string' && apiVersion !== want) {
    // said once, naming the configured group (the schema only knows `<group>/v1`)
    const schemaSaid = diagnostics.findIndex((d) => d.path === 'apiVersion');
    if (schemaSaid >= 0) diagnostics.splice(schemaSaid, 1);
    const message = `${k} must have apiVersion ${want}, not ${apiVersion}`;
    diagnostics.push({
      severity: 'error',
      code: 'api-version',
      message,
      key,
      ...at(doc, ['apiVersion']),
    });
  }
  variableChecks(doc, key, diagnostics);
  if (diagnostics.some((d) => d.severity === 'error')) return { key, diagnostics };
  return { manifest: data as Manifest, key, diagnostics };
}

const POLICY_FIELDS = ['source_cidr', 'action', 'application', 'port', 'protocol'];

/** The path of a node and where it is, for a diagnostic. */
const at = (doc: ParsedDocument, path: (string | number)[]) => ({
  path: pathToString(path),
  ...doc.positionOf(path),
});

/**
 * Checks on `spec.variables` a schema cannot express, their diagnostics pushed to `out`. A loop
 * over the few variables of a document, with nothing made for those that pass (this runs for
 * every document: a Set and a closure per variable were 100,000s of objects for the collector).
 */
function variableChecks(doc: ParsedDocument, key: string | undefined, out: Diagnostic[]): void {
  const spec = (doc.data as { spec?: { variables?: unknown } }).spec;
  const vars = spec?.variables;
  if (!Array.isArray(vars)) return;
  const err = (i: number, field: string, message: string) =>
    out.push({
      severity: 'error',
      code: 'invalid-value',
      message,
      key,
      path: `spec.variables[${i}].${field}`,
      ...doc.positionOf(['spec', 'variables', i, field]),
    });
  for (let i = 0; i < vars.length; i++) {
    const v = vars[i] as { name?: unknown; value?: unknown } | null;
    if (v === null || typeof v !== 'object' || typeof v.name !== 'string') continue;
    if (setBefore(vars, i, v.name)) err(i, 'name', `variable ${v.name} is set more than once`);
    if (v.name === 'Security Policies' && typeof v.value === 'string') {
      const problem = policiesProblemOf(v.value);
      if (problem) err(i, 'value', `Security Policies ${problem}`);
    }
  }
}

/** Whether a variable before the `i`th of `vars` has the name `name`. */
function setBefore(vars: readonly unknown[], i: number, name: string): boolean {
  for (let j = 0; j < i; j++) {
    const v = vars[j] as { name?: unknown } | null;
    if (v !== null && typeof v === 'object' && v.name === name) return true;
  }
  return false;
}

/**
 * {@link securityPoliciesProblem}, remembered for the last few hundred values: a set's instances
 * mostly share a handful of rule lists, and parsing each again was a JSON.parse per instance.
 */
function policiesProblemOf(value: string): string | undefined {
  if (policyProblems.has(value)) return policyProblems.get(value);
  const problem = securityPoliciesProblem(value);
  if (policyProblems.size >= 500) policyProblems.clear();
  // a copy: the value is a slice of its file's text, which the cache would otherwise keep
  policyProblems.set(` ${value}`.slice(1), problem);
  return problem;
}
const policyProblems = new Map<string, string | undefined>();

/** Why a Security Policies value is wrong, or undefined when it is a valid JSON rule list. */
export function securityPoliciesProblem(value: string): string | undefined {
  let rules: unknown;
  try {
    rules = JSON.parse(value);
  } catch {
    return 'must be JSON text (a list of rules)';
  }
  if (!Array.isArray(rules)) return 'must be a JSON list of rules';
  for (const [i, r] of rules.entries()) {
    if (r === null || typeof r !== 'object' || Array.isArray(r))
      return `rule ${i} must be an object`;
    const extra = Object.keys(r).find((f) => !POLICY_FIELDS.includes(f));
    if (extra) return `rule ${i} has unknown field ${extra}; allowed: ${POLICY_FIELDS.join(', ')}`;
    const cidr = (r as { source_cidr?: unknown }).source_cidr;
    if (cidr !== undefined && (typeof cidr !== 'string' || !FORMATS.cidr!.test.test(cidr))) {
      return `rule ${i} source_cidr must be ${FORMATS.cidr!.means}`;
    }
  }
  return undefined;
}
