import type { ErrorObject } from 'ajv/dist/2020.js';
import { type Diagnostic, type DiagnosticCode, pathToString } from './diagnostics.js';
import { FORMATS } from './formats.js';
import type { ParsedDocument } from './parse.js';

type JsonPath = (string | number)[];

/** Follows a JSON pointer into data, turning array indices into numbers. Pure. */
function pointerToPath(pointer: string, data: unknown): JsonPath {
  const path: JsonPath = [];
  let cur: unknown = data;
  for (const raw of pointer.split('/').slice(1)) {
    const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(cur) && /^\d+$/.test(seg)) {
      path.push(Number(seg));
      cur = cur[Number(seg)];
    } else {
      path.push(seg);
      cur =
        cur !== null && typeof cur === 'object' ? (cur as Record<string, unknown>)[seg] : undefined;
    }
  }
  return path;
}

function valueAt(data: unknown, path: JsonPath): unknown {
  let cur = data;
  for (const p of path)
    cur = cur !== null && typeof cur === 'object' ? (cur as never)[p] : undefined;
  return cur;
}

/** A variable value is named by its variable (`Contract Term`), anything else by nothing. */
function subject(data: unknown, path: JsonPath): string {
  const n = path.length;
  if (n >= 3 && path[n - 3] === 'variables' && path[n - 1] === 'value') {
    const name = valueAt(data, [...path.slice(0, -1), 'name']);
    if (typeof name === 'string') return `${name} `;
  }
  return '';
}

/** The closest candidate within edit distance 2, for "did you mean". Pure. */
export function closest(word: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestD = 3;
  for (const c of candidates) {
    const d = distance(word.toLowerCase(), c.toLowerCase());
    if (d < bestD) [best, bestD] = [c, d];
  }
  return best;
}

function distance(a: string, b: string): number {
  const row = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let prev = row[0]!;
    row[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const tmp = row[j]!;
      row[j] = Math.min(row[j]! + 1, row[j - 1]! + 1, prev + (a[i - 1] === b[j - 1] ? 0 : 1));
      prev = tmp;
    }
  }
  return row[b.length]!;
}

const list = (xs: readonly unknown[]) => xs.map((x) => String(x)).join(', ');
const A: Record<string, string> = {
  string: 'a string',
  integer: 'an integer',
  number: 'a number',
  boolean: 'true or false',
  object: 'a mapping',
  array: 'a list',
  null: 'null',
};
const typeName = (v: unknown) =>
  v === null ? 'null' : Array.isArray(v) ? 'a list' : (A[typeof v] ?? typeof v);
const expected = (t: unknown) =>
  String(t)
    .split(',')
    .map((x) => A[x] ?? x)
    .join(' or ');

/**
 * Turns ajv's errors for one document into diagnostics a person understands, each at the
 * offending node. Drops the `if` noise of conditional schemas, keeps one message per path and
 * problem, and uses the schema's own `errorMessage` where it has one. Pure.
 */
export function schemaDiagnostics(
  doc: ParsedDocument,
  errors: readonly ErrorObject[],
  key: string | undefined,
): Diagnostic[] {
  const out: Diagnostic[] = [];
  const seen = new Set<string>();
  // A value of the wrong type also fails its enum or format; the type is the one that matters.
  const wrongType = new Set(errors.filter((e) => e.keyword === 'type').map((e) => e.instancePath));
  for (const e of errors) {
    if (e.keyword === 'if' || e.keyword === 'allOf' || e.keyword === 'anyOf') continue;
    if (e.keyword !== 'type' && e.keyword !== 'required' && wrongType.has(e.instancePath)) continue;
    const base = pointerToPath(e.instancePath, doc.data);
    let path = base;
    let code: DiagnosticCode = 'invalid-value';
    let message: string;
    let pos = doc.positionOf(base);
    const p = e.params as Record<string, unknown>;
    const custom = (e.parentSchema as { errorMessage?: unknown } | undefined)?.errorMessage;
    const about = subject(doc.data, base);
    switch (e.keyword) {
      case 'required':
        path = [...base, String(p.missingProperty)];
        code = 'missing-field';
        message = `required field ${String(p.missingProperty)} is missing`;
        pos = base.length ? doc.keyPositionOf(base) : doc.source;
        break;
      case 'additionalProperties': {
        const name = String(p.additionalProperty);
        path = [...base, name];
        pos = doc.keyPositionOf(path);
        if (name === 'password' && base.join('.') === 'spec') {
          code = 'plain-password';
          message =
            'a plain-text password is not allowed in a manifest; use passwordFrom: {env: VARIABLE} or passwordFrom: {file: PATH}';
          break;
        }
        code = 'unknown-field';
        const props = Object.keys((e.parentSchema as { properties?: object }).properties ?? {});
        const hint = closest(name, props);
        message = `unknown field ${name}${hint ? ` (did you mean ${hint}?)` : props.length ? `; allowed: ${list(props)}` : ''}`;
        break;
      }
      case 'enum': {
        const allowed = p.allowedValues as unknown[];
        const got = valueAt(doc.data, base);
        const hint = typeof got === 'string' ? closest(got, allowed.map(String)) : undefined;
        message =
          allowed.length === 1
            ? `${about}must be ${String(allowed[0])}`
            : `${about}must be one of ${list(allowed)}${hint ? ` (did you mean ${hint}?)` : ''}`;
        break;
      }
      case 'const':
        message = `${about}must be ${String(p.allowedValue)}`;
        break;
      case 'type':
        message = `${about}must be ${expected(p.type)}, not ${typeName(valueAt(doc.data, base))}`;
        break;
      case 'format':
        message = `${about}must be ${FORMATS[String(p.format)]?.means ?? `in ${String(p.format)} format`}`;
        break;
      default:
        message = `${about}${e.message ?? 'is invalid'}`;
    }
    // The schema's own message explains a value; a wrong type or field keeps the generic one.
    if (
      typeof custom === 'string' &&
      !['type', 'required', 'additionalProperties'].includes(e.keyword)
    ) {
      message = custom.startsWith(about.trim()) ? custom : `${about}${custom}`;
    }
    const id = `${pathToString(path)}|${code}|${message}`;
    if (seen.has(id)) continue;
    seen.add(id);
    out.push({ severity: 'error', code, message, path: pathToString(path), ...pos, key });
  }
  return out;
}
