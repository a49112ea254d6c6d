import pc from 'picocolors';
import { redact } from '../core/errors.js';
import { printable, printableJson } from '../core/terminal-text.js';

/**
 * The closed set of diagnostic codes the loader and validator produce. Each names one kind of
 * mistake a person can make; `docs/manifests.md` lists them.
 */
export const DIAGNOSTIC_CODES = [
  // files and paths
  'path-not-found',
  'file-read',
  'file-too-large',
  'invalid-encoding',
  'too-many-documents',
  'too-many-diagnostics',
  'symlink-escape',
  'no-manifests',
  'var-file',
  // YAML
  'yaml-syntax',
  'yaml-duplicate-key',
  'yaml-tab',
  'yaml-indent',
  'yaml-alias-limit',
  'yaml-too-deep',
  'undefined-variable',
  'refused-variable',
  'refused-file',
  // one document
  'not-a-mapping',
  'unknown-kind',
  'api-version',
  'missing-field',
  'unknown-field',
  'invalid-value',
  'plain-password',
  // across documents
  'duplicate-identity',
  'duplicate-target',
  'undeclared-workspace',
  'undeclared-user',
  'undeclared-cluster',
  'no-vpc-in-project',
  'dangling-dependency',
  'dependency-cycle',
  'disabled-blueprint-version',
  'policy-syntax',
  'power-schedule',
  'invalid-window',
  // against the live platform
  'unknown-project',
] as const;

/** One of {@link DIAGNOSTIC_CODES}. */
export type DiagnosticCode = (typeof DIAGNOSTIC_CODES)[number];

/**
 * A problem found in the manifests. `line` and `col` are 1-based; `path` is the JSON path inside
 * the document (`spec.variables[2].value`); `key` is the identity key of the manifest concerned.
 * Messages never contain secret values (passwords are never read by the loader).
 */
export interface Diagnostic {
  severity: 'error' | 'warning';
  code: DiagnosticCode;
  message: string;
  file?: string;
  line?: number;
  col?: number;
  path?: string;
  key?: string;
}

/** Renders a JSON path array as `spec.variables[2].value`. Pure. */
export function pathToString(path: readonly (string | number)[]): string {
  let out = '';
  for (const p of path) {
    if (typeof p === 'number') out += `[${p}]`;
    else if (/^[A-Za-z_][\w-]*$/.test(p)) out += out === '' ? p : `.${p}`;
    else out += `[${JSON.stringify(p)}]`;
  }
  return out;
}

/** True when any diagnostic is an error. */
export function hasErrors(diags: readonly Diagnostic[]): boolean {
  return diags.some((d) => d.severity === 'error');
}

/** Orders diagnostics by file, line, column, then code, so output is stable. Returns a copy. */
export function sortDiagnostics(diags: readonly Diagnostic[]): Diagnostic[] {
  return [...diags].sort(
    (a, b) =>
      (a.file ?? '').localeCompare(b.file ?? '') ||
      (a.line ?? 0) - (b.line ?? 0) ||
      (a.col ?? 0) - (b.col ?? 0) ||
      a.code.localeCompare(b.code) ||
      a.message.localeCompare(b.message),
  );
}

/**
 * Formats diagnostics for people (`file:line:col: error[code]: path: message`, one per line, then
 * a summary) or as a JSON array, control characters of the input escaped in both
 * (`core/terminal-text.ts`). Pure; colour only when `opts.color` is true.
 */
export function formatDiagnostics(
  diags: readonly Diagnostic[],
  format: 'human' | 'json',
  opts: { color?: boolean } = {},
): string {
  if (format === 'json') {
    return `${printableJson(JSON.stringify(diags.map(redactDiagnostic), null, 2))}\n`;
  }
  const c = pc.createColors(opts.color ?? false);
  const lines = diags.map((raw) => {
    const d = redactDiagnostic(raw);
    // file names, field names and messages quote the input: printed escaped
    const where = d.file ? `${printable(d.file)}${d.line ? `:${d.line}:${d.col ?? 1}` : ''}: ` : '';
    const sev = d.severity === 'error' ? c.red(`error[${d.code}]`) : c.yellow(`warning[${d.code}]`);
    const path = d.path ? `${c.bold(printable(d.path))}: ` : '';
    return `${c.dim(where)}${sev}: ${path}${printable(d.message)}`;
  });
  const errors = diags.filter((d) => d.severity === 'error').length;
  const warnings = diags.length - errors;
  lines.push(
    `${errors} error${errors === 1 ? '' : 's'}, ${warnings} warning${warnings === 1 ? '' : 's'}`,
  );
  return `${lines.join('\n')}\n`;
}

function redactDiagnostic(d: Diagnostic): Diagnostic {
  return { ...d, message: redact(d.message) };
}
