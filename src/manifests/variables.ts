import { readFile } from 'node:fs/promises';
import { parse } from 'yaml';
import type { Diagnostic } from './diagnostics.js';

/** Looks a variable up; `undefined` means it is not defined anywhere. */
export type VarLookup = (name: string) => string | undefined;

const VAR = /\$(\$?)\{([A-Za-z_][A-Za-z0-9_]*)\}/g;

/**
 * Flux-style substitution of `${NAME}` in one string; `$${NAME}` is the escape for a literal
 * `${NAME}`. Returns the new string and the names that were not defined (left in place). Pure.
 */
export function substituteString(
  text: string,
  lookup: VarLookup,
): { value: string; missing: string[]; changed: boolean } {
  if (!text.includes('${')) return { value: text, missing: [], changed: false };
  const missing: string[] = [];
  const value = text.replace(VAR, (whole, escaped: string, name: string) => {
    if (escaped) return whole.slice(1);
    const v = lookup(name);
    if (v === undefined) {
      missing.push(name);
      return whole;
    }
    return v;
  });
  return { value, missing, changed: value !== text };
}

/** Parses a var file: a YAML map of scalars, or `KEY=VALUE` lines (`#` comments). Pure. */
export function parseVarFile(text: string): { vars: Record<string, string>; error?: string } {
  let doc: unknown;
  try {
    doc = parse(text, { maxAliasCount: 10 });
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
 * Builds the variable lookup: explicit `vars` win over `--var-file`s (a later file wins over an
 * earlier one), which win over the environment. Reads the var files; never throws.
 */
export async function buildLookup(input: {
  vars?: Record<string, string>;
  varFiles?: readonly string[];
  env?: Record<string, string | undefined>;
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
  const lookup: VarLookup = (name) =>
    Object.hasOwn(explicit, name)
      ? explicit[name]
      : Object.hasOwn(fromFiles, name)
        ? fromFiles[name]
        : env[name];
  return { lookup, diagnostics };
}
