import jsonpatch from 'fast-json-patch';
import type { FieldChange, ReasonCode } from '../../model/action.js';
import type { Manifest } from '../../model/manifest.js';
import { jsonCopy } from './json-copy.js';

/** A JSON object as the diff sees it. */
export type Doc = Record<string, unknown>;

const SECRET_KEY = /password|secret|token|api.?key/i;
const MASK = '***';

/**
 * A deep copy of a manifest without platctl-only metadata (`dependsOn`, `annotations`) and
 * without `undefined` values: the form that is compared and sent. Pure.
 */
export function managedBody(manifest: Manifest): Doc {
  const copy = jsonCopy<unknown>(manifest) as Doc;
  const metadata = copy.metadata as Doc | undefined;
  if (metadata) {
    delete metadata.dependsOn;
    delete metadata.annotations;
  }
  return copy;
}

/** True when two JSON values are structurally equal (object key order ignored). Pure. */
function deepEqual(a: unknown, b: unknown): boolean {
  return jsonpatch.compare({ v: a }, { v: b }).length === 0;
}

/**
 * Variables keyed by name (`spec.variables` as `{ [name]: {value, valueType?} }`) so that order
 * does not matter and a change reads `spec.variables/Contract Term/value`. Pure, copies.
 */
function keyVariables(body: Doc): Doc {
  const spec = body.spec as Doc | undefined;
  if (!spec || !Array.isArray(spec.variables)) return body;
  const keyed: Doc = {};
  for (const v of spec.variables as { name: string }[]) {
    const { name, ...rest } = v;
    put(keyed, name, rest);
  }
  return { ...body, spec: { ...spec, variables: keyed } };
}

/**
 * Keeps only what some shape names: a live field that neither the desired manifest nor the last
 * applied one mentions is the platform's business (a default, an unmanaged field). Pure.
 */
function projectOnto(live: unknown, shapes: readonly unknown[]): unknown {
  if (!isObject(live)) return live;
  const objectShapes = shapes.filter(isObject);
  if (objectShapes.length === 0) return live;
  const out: Doc = {};
  for (const [k, v] of Object.entries(live)) {
    const sub = objectShapes.filter((s) => Object.hasOwn(s, k)).map((s) => s[k]);
    if (sub.length > 0) put(out, k, projectOnto(v, sub));
  }
  return out;
}

/** The outcome of a three-way comparison, or undefined when in sync. */
export interface Difference {
  readonly changes: FieldChange[];
  /** `drift` when git still says what was last applied and only the platform moved. */
  readonly code: Extract<ReasonCode, 'changed' | 'drift'>;
  /**
   * "spec.variables[Contract Term].value changed from 6 to 12 (and 1 more)"; drift says what each
   * side holds: "spec.variables[Contract Term].value: platform has 8, git says 1".
   */
  readonly message: string;
}

/**
 * Three-way diff of managed bodies (already without platctl metadata). A field present live and
 * in `lastApplied` but gone from `desired` is removed; a live field neither mentions is ignored.
 * Secret-named fields are masked. Pure; never mutates its inputs.
 */
export function threeWayDiff(desired: Doc, live: Doc, lastApplied?: Doc): Difference | undefined {
  const d = keyVariables(desired);
  const a = lastApplied ? keyVariables(lastApplied) : undefined;
  const l = projectOnto(keyVariables(live), a ? [d, a] : [d]) as Doc;
  const ops = jsonpatch.compare(l, d);
  if (ops.length === 0) return undefined;
  const changes = ops.map((op): FieldChange => {
    const kind = op.op as FieldChange['op'];
    const before = kind === 'add' ? undefined : jsonpatch.getValueByPointer(l, op.path);
    const after = kind === 'remove' ? undefined : (op as { value?: unknown }).value;
    return maskChange({
      op: kind,
      path: op.path,
      ...(before !== undefined ? { before } : {}),
      ...(after !== undefined ? { after } : {}),
    });
  });
  const code = a !== undefined && deepEqual(d, a) ? 'drift' : 'changed';
  return { changes, code, message: describeChanges(changes, code) };
}

/**
 * One sentence for people about a list of changes (pure). A change in git reads as what apply does
 * (`x changed from 6 to 12`); drift says what each side holds (`x: platform has 8, git says 1`),
 * since the platform moved and git did not.
 */
function describeChanges(changes: readonly FieldChange[], code: 'changed' | 'drift'): string {
  const first = changes[0];
  if (!first) return 'in sync';
  const path = displayPath(first.path);
  const more = changes.length > 1 ? ` (and ${changes.length - 1} more)` : '';
  if (code === 'drift') {
    const side = (v: unknown) => (v === undefined ? 'none' : quoted(v));
    return `${path}: platform has ${side(first.before)}, git says ${side(first.after)}${more}`;
  }
  const what =
    first.op === 'add'
      ? `${path} added`
      : first.op === 'remove'
        ? `${path} removed`
        : `${path} changed from ${show(first.before)} to ${show(first.after)}`;
  return `${what}${more}`;
}

/** A value in a sentence: bare when it is one plain word or number, else quoted. Pure. */
function quoted(value: unknown): string {
  const text = show(value);
  return typeof value === 'string' && (text === '' || /[\s,"]/.test(text))
    ? JSON.stringify(text)
    : text;
}

/** `/spec/variables/Contract Term/value` → `spec.variables[Contract Term].value`. Pure. */
export function displayPath(pointer: string): string {
  const parts = pointer
    .split('/')
    .slice(1)
    .map((p) => p.replace(/~1/g, '/').replace(/~0/g, '~'));
  let out = '';
  parts.forEach((p, i) => {
    if (/^\d+$/.test(p) || parts[i - 1] === 'variables') out += `[${p}]`;
    else out += out ? `.${p}` : p;
  });
  return out;
}

/** The change with secret-named values replaced by `***`. Pure. */
function maskChange(change: FieldChange): FieldChange {
  if (!SECRET_KEY.test(change.path)) {
    return {
      ...change,
      ...('before' in change ? { before: maskDeep(change.before) } : {}),
      ...('after' in change ? { after: maskDeep(change.after) } : {}),
    };
  }
  return {
    ...change,
    ...('before' in change ? { before: MASK } : {}),
    ...('after' in change ? { after: MASK } : {}),
  };
}

function maskDeep(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(maskDeep);
  if (!isObject(value)) return value;
  const out: Doc = {};
  for (const [k, v] of Object.entries(value)) put(out, k, SECRET_KEY.test(k) ? MASK : maskDeep(v));
  return out;
}

function show(value: unknown): string {
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/** Sets an own property, even one named `__proto__` (user data may use any name). */
function put(target: Doc, key: string, value: unknown): void {
  Object.defineProperty(target, key, {
    value,
    enumerable: true,
    writable: true,
    configurable: true,
  });
}

function isObject(v: unknown): v is Doc {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}
