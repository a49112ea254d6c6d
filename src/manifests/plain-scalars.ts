/**
 * Scalars as the `yaml` library's YAML 1.2 core schema reads them (src/schema/core there), for
 * {@link plainDocuments}: the same patterns and conversions as the js-yaml fast path's schema
 * (`fast-parse.ts`), asked directly rather than through js-yaml's type list. Pure.
 */

const INT = /^[-+]?[0-9]+$/;
const OCT = /^0o[0-7]+$/;
const HEX = /^0x[0-9a-fA-F]+$/;
const INF = /^[-+]?\.(?:inf|Inf|INF)$/;
const NAN = /^\.(?:nan|NaN|NAN)$/;
const FLOAT_EXP = /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/;
const FLOAT = /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/;

/** What a number's text becomes, or the text itself when it is no number of the core schema. */
function numberOf(s: string): number | string {
  if (INT.test(s)) return Number.parseInt(s, 10);
  if (OCT.test(s)) return Number.parseInt(s.substring(2), 8);
  if (HEX.test(s)) return Number.parseInt(s.substring(2), 16);
  if (INF.test(s)) return s[0] === '-' ? Number.NEGATIVE_INFINITY : Number.POSITIVE_INFINITY;
  if (NAN.test(s)) return Number.NaN;
  if (FLOAT_EXP.test(s) || FLOAT.test(s)) return Number.parseFloat(s);
  return s;
}

/**
 * The value of a plain (unquoted) scalar written as `s` (non-empty, trimmed): null, a boolean, a
 * number or the string itself. Most scalars are names: they are ruled out by their first
 * character before any pattern runs.
 */
export function plainValue(s: string): unknown {
  const c = s.charCodeAt(0);
  // a digit, `+`, `-` or `.`: what every number starts with
  if ((c >= 48 && c <= 57) || c === 43 || c === 45 || c === 46) return numberOf(s);
  if (s.length > 5) return s;
  switch (s) {
    case '~':
    case 'null':
    case 'Null':
    case 'NULL':
      return null;
    case 'true':
    case 'True':
    case 'TRUE':
      return true;
    case 'false':
    case 'False':
    case 'FALSE':
      return false;
    default:
      return s;
  }
}

/**
 * Whether a plain key written as `s` is the very string `s` in the data: not null, a boolean or
 * a number, which the libraries turn into strings differently. Keys that start with a letter or
 * `_` can only be those as one of the words below.
 */
export function isStringKey(s: string): boolean {
  return plainValue(s) === s && s !== '__proto__';
}

/** `[A-Za-z0-9_./-]`: the characters of a key the plain path reads. */
export function isKeyChar(c: number): boolean {
  return (
    (c >= 97 && c <= 122) || // a-z
    (c >= 65 && c <= 90) || // A-Z
    (c >= 45 && c <= 57) || // - . / 0-9
    c === 95 // _
  );
}

/** Whether `c` may start a key: a letter or `_` (never a number, `~` or an indicator). */
export function isKeyStart(c: number): boolean {
  return (c >= 97 && c <= 122) || (c >= 65 && c <= 90) || c === 95;
}

/**
 * Characters no plain scalar may start with, or that the plain path leaves to the libraries:
 * flow and block indicators, anchors, aliases, tags, directives, reserved characters, quotes are
 * read elsewhere. `-`, `?` and `:` are tested with the character after them.
 */
export function isIndicatorStart(c: number): boolean {
  switch (c) {
    case 35: // #
    case 38: // &
    case 42: // *
    case 33: // !
    case 124: // |
    case 62: // >
    case 37: // %
    case 64: // @
    case 96: // `
    case 44: // ,
    case 91: // [
    case 93: // ]
    case 123: // {
    case 125: // }
    case 63: // ?
    case 58: // :
      return true;
    default:
      return false;
  }
}
