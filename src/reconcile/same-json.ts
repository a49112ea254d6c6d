/**
 * `JSON.stringify(a) === JSON.stringify(b)` without building either string (pure). The recorder
 * asks it of every in-sync resource of a resync (its inventory entry and its last-applied
 * manifest against the new ones): two strings each, 10,000 times an interval, only to compare.
 * Walks both values in JSON's order with JSON's rules (properties in key order, `undefined` and
 * functions left out of objects and `null` in arrays, non-finite numbers `null`); a value JSON
 * treats in a way of its own (`toJSON`, a class instance, a bigint, a cycle) is compared by
 * `JSON.stringify` itself.
 */
export function sameJson(a: unknown, b: unknown): boolean {
  const walked = walk(a, b, 0);
  return walked === 'unsure' ? JSON.stringify(a) === JSON.stringify(b) : walked;
}

type Verdict = boolean | 'unsure';

/** Deeper than this is a cycle or a document no manifest is: left to `JSON.stringify`. */
const MAX_DEPTH = 64;

function walk(a: unknown, b: unknown, depth: number): Verdict {
  if (a === b) return true;
  if (depth > MAX_DEPTH) return 'unsure';
  const ka = kindOf(a);
  const kb = kindOf(b);
  if (ka === 'other' || kb === 'other') return 'unsure';
  if (ka !== kb) return false;
  // both written `null`, or both left out (at the top: `JSON.stringify` gives undefined for each)
  if (ka === 'null' || ka === 'skipped') return true;
  if (ka === 'number') return json(a as number) === json(b as number);
  if (ka === 'array') return sameArray(a as unknown[], b as unknown[], depth);
  if (ka === 'object') return sameObject(a as object, b as object, depth);
  return a === b;
}

/** JSON's text of a number: `null` for a non-finite one, the same for `0` and `-0`. */
function json(n: number): number | null {
  return Number.isFinite(n) ? n : null;
}

type Kind = 'null' | 'number' | 'string' | 'boolean' | 'array' | 'object' | 'skipped' | 'other';

function kindOf(v: unknown): Kind {
  switch (typeof v) {
    case 'string':
      return 'string';
    case 'boolean':
      return 'boolean';
    case 'number':
      // a non-finite number is written `null`
      return Number.isFinite(v) ? 'number' : 'null';
    case 'undefined':
    case 'function':
    case 'symbol':
      return 'skipped';
    case 'object': {
      if (v === null) return 'null';
      if (Array.isArray(v)) return 'array';
      const proto = Object.getPrototypeOf(v) as unknown;
      if (proto !== Object.prototype && proto !== null) return 'other';
      return typeof (v as { toJSON?: unknown }).toJSON === 'function' ? 'other' : 'object';
    }
    default:
      return 'other';
  }
}

function sameArray(a: readonly unknown[], b: readonly unknown[], depth: number): Verdict {
  if (a.length !== b.length) return false;
  let verdict: Verdict = true;
  for (let i = 0; i < a.length; i++) {
    // in an array, what an object leaves out is written `null`
    const x = kindOf(a[i]) === 'skipped' ? null : a[i];
    const y = kindOf(b[i]) === 'skipped' ? null : b[i];
    const v = walk(x, y, depth + 1);
    if (v === false) return false;
    if (v === 'unsure') verdict = 'unsure';
  }
  return verdict;
}

function sameObject(a: object, b: object, depth: number): Verdict {
  const ra = a as Record<string, unknown>;
  const rb = b as Record<string, unknown>;
  const ka = Object.keys(ra);
  const kb = Object.keys(rb);
  let verdict: Verdict = true;
  let i = 0;
  let j = 0;
  for (;;) {
    // the properties JSON writes, in order: those whose value it does not leave out
    while (i < ka.length && kindOf(ra[ka[i]!]) === 'skipped') i++;
    while (j < kb.length && kindOf(rb[kb[j]!]) === 'skipped') j++;
    if (i === ka.length || j === kb.length) return i === ka.length && j === kb.length && verdict;
    if (ka[i] !== kb[j]) return false;
    const v = walk(ra[ka[i]!], rb[kb[j]!], depth + 1);
    if (v === false) return false;
    if (v === 'unsure') verdict = 'unsure';
    i++;
    j++;
  }
}
