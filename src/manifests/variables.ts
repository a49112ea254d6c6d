import { readFile } from 'node:fs/promises';
import { refusedVariable } from '../core/credentials.js';
import { yamlLib } from '../core/yaml-lib.js';
import type { Diagnostic } from './diagnostics.js';

/**
 * Looks a variable up; `undefined` means it has no value to substitute. `refusal` says why a name
 * that has no value was refused (a credential), when it was.
 */
export type VarLookup = ((name: string) => string | undefined) & {
  readonly refusal?: (name: string) => string | undefined;
  /** True when substituted text holds a refused value (the API key), whole or pieced together. */
  readonly holdsRefused?: (text: string) => boolean;
};

/** The environment is read only through this prefix: `${STAGE}` reads `PLATCTL_VAR_STAGE`. */
const ENV_VAR_PREFIX = 'PLATCTL_VAR_';

/**
 * The diagnostic for a `${name}` that got no value (pure): refused (a credential, a secret-named
 * variable, a value holding a credential) or not defined.
 */
export function missingVariable(
  lookup: VarLookup,
  name: string,
): { code: 'refused-variable' | 'undefined-variable'; message: string } {
  const refused = lookup.refusal?.(name);
  if (refused !== undefined) return { code: 'refused-variable', message: refused };
  return {
    code: 'undefined-variable',
    message: `variable \${${name}} is not defined (pass --var ${name}=..., a --var-file, or set ${ENV_VAR_PREFIX}${name}; write $\${${name}} for a literal)`,
  };
}

const VAR = /\$(\$?)\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * The diagnostic for substituted text that holds a refused value although no variable alone does
 * (pure): `${A}${B}` holding the key's two halves, or the manifest's text completed by one. It
 * names the variables, never a value.
 */
export function refusedResult(used: readonly string[]): {
  code: 'refused-variable';
  message: string;
} {
  const names = [...new Set(used)].map((n) => `\${${n}}`).join(', ');
  return {
    code: 'refused-variable',
    message: `the text substituted from ${names} holds one of platctl's own credentials; a manifest may never carry it`,
  };
}

/**
 * Flux-style substitution of `${NAME}` in one string; `$${NAME}` is the escape for a literal
 * `${NAME}`. Returns the new string, the names that were not defined (left in place) and the
 * names that were substituted, and whether the result holds a refused value (checked on the
 * whole result: no variable alone may hold it, but pieces may). Pure.
 */
export function substituteString(
  text: string,
  lookup: VarLookup,
): { value: string; missing: string[]; used: string[]; changed: boolean; refused: boolean } {
  if (!text.includes('${')) {
    return { value: text, missing: [], used: [], changed: false, refused: false };
  }
  const missing: string[] = [];
  const used: string[] = [];
  const value = text.replace(VAR, (whole, escaped: string, name: string) => {
    if (escaped) return whole.slice(1);
    const v = lookup(name);
    if (v === undefined) {
      missing.push(name);
      return whole;
    }
    used.push(name);
    return v;
  });
  const refused = used.length > 0 && lookup.holdsRefused?.(value) === true;
  return { value, missing, used, changed: value !== text, refused };
}

/** Parses a var file: a YAML map of scalars, or `KEY=VALUE` lines (`#` comments). Pure. */
export function parseVarFile(text: string): { vars: Record<string, string>; error?: string } {
  let doc: unknown;
  try {
    doc = yamlLib().parse(text, { maxAliasCount: 10 });
  } catch {
    doc = undefined;
  }
  if (doc !== null && typeof doc === 'object' && !Array.isArray(doc)) {
    const vars: Record<string, string> = {};
    for (const [k, v] of Object.entries(doc)) {
      if (v !== null && typeof v === 'object') return { vars, error: `${k} is not a scalar value` };
      vars[k] = String(v ?? '');
    }
    return { vars };
  }
  const vars: Record<string, string> = {};
  const lines = text.split(/\r?\n/);
  for (const [i, raw] of lines.entries()) {
    const line = raw.trim();
    if (line === '' || line.startsWith('#')) continue;
    const m = /^(?:export\s+)?([A-Za-z_][A-Za-z0-9_]*)\s*=\s*(.*)$/.exec(line);
    if (!m) return { vars, error: `line ${i + 1} is neither KEY=VALUE nor part of a YAML map` };
    let value = m[2] ?? '';
    if (/^(["']).*\1$/.test(value)) value = value.slice(1, -1);
    vars[m[1]!] = value;
  }
  return { vars };
}

/**
 * Builds the variable lookup from an explicit allowlist: `vars` (`--var`) win over `--var-file`s
 * (a later file wins over an earlier one), which win over `PLATCTL_VAR_<NAME>` in the
 * environment; nothing else of the environment is read. A credential or secret-named variable is
 * refused whatever its source, and so is a value that contains one of `refusedValues` (the API
 * key), and (through `holdsRefused`) substituted text that does. Reads the var files; never throws.
 */
export async function buildLookup(input: {
  vars?: Record<string, string>;
  varFiles?: readonly string[];
  env?: Record<string, string | undefined>;
  refusedValues?: readonly string[];
}): Promise<{ lookup: VarLookup; diagnostics: Diagnostic[] }> {
  const diagnostics: Diagnostic[] = [];
  const fromFiles: Record<string, string> = {};
  for (const f of input.varFiles ?? []) {
    let text: string;
    try {
      text = await readFile(f, 'utf8');
    } catch (e) {
      diagnostics.push({
        severity: 'error',
        code: 'var-file',
        file: f,
        message: `cannot read var file: ${(e as NodeJS.ErrnoException).code ?? String(e)}`,
      });
      continue;
    }
    const { vars, error } = parseVarFile(text);
    if (error) diagnostics.push({ severity: 'error', code: 'var-file', file: f, message: error });
    Object.assign(fromFiles, vars);
  }
  const env = input.env ?? process.env;
  const explicit = input.vars ?? {};
  const secrets = (input.refusedValues ?? []).filter((s) => s.length >= 4);
  const raw = (name: string) =>
    Object.hasOwn(explicit, name)
      ? explicit[name]
      : Object.hasOwn(fromFiles, name)
        ? fromFiles[name]
        : env[`${ENV_VAR_PREFIX}${name}`];
  const refusal = (name: string): string | undefined => {
    const why = refusedVariable(name);
    if (why !== undefined) return why;
    const value = raw(name);
    if (value !== undefined && secrets.some((s) => value.includes(s))) {
      return `\${${name}} holds one of platctl's own credentials; a manifest may never carry it`;
    }
    return undefined;
  };
  const lookup: VarLookup = Object.assign(
    (name: string) => (refusal(name) === undefined ? raw(name) : undefined),
    { refusal, holdsRefused: (text: string) => secrets.some((s) => text.includes(s)) },
  );
  return { lookup, diagnostics };
}
