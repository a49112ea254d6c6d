import type { FieldChange } from '../../model/action.js';
import { masked, show } from './summary.js';

/** One line of a field change for people: a sign, a nesting depth and `label: value`. */
export interface ChangeLine {
  readonly sign: '+' | '-' | '~';
  /** 0 for the changed field itself, one more per level inside it. */
  readonly depth: number;
  readonly text: string;
}

/** Keys whose values are never shown at any depth (a `passwordFrom` is a reference, shown). */
const SECRET_KEY = /password|passwd|secret|token|api[-_]?key/i;

/**
 * The lines of one field change (pure), secrets masked. A replace, or an added or removed
 * scalar, is one line; an added or removed object or array (a created resource's `/spec`) is its
 * path on a line, then one line per field, nested like `terraform plan`, each value whole.
 */
export function changeLines(change: FieldChange): ChangeLine[] {
  const ch = masked(change);
  if (ch.op === 'replace') {
    return [{ sign: '~', depth: 0, text: `${ch.path}: ${show(ch.before)} -> ${show(ch.after)}` }];
  }
  const sign = ch.op === 'add' ? '+' : '-';
  return fieldLines(ch.path, ch.op === 'add' ? ch.after : ch.before, 0).map((l) => ({
    sign,
    ...l,
  }));
}

function fieldLines(label: string, value: unknown, depth: number): Omit<ChangeLine, 'sign'>[] {
  const entries = nestedEntries(value);
  // a leaf is shown whole: a reviewer must see all of a security policy, not its first 120 chars
  if (entries.length === 0) return [{ depth, text: `${label}: ${whole(value)}` }];
  return [
    { depth, text: `${label}:` },
    ...entries.flatMap(([key, v]) =>
      SECRET_KEY.test(key) && key !== 'passwordFrom'
        ? [{ depth: depth + 1, text: `${key}: (sensitive)` }]
        : fieldLines(key, v, depth + 1),
    ),
  ];
}

function whole(value: unknown): string {
  return value === undefined ? '(none)' : JSON.stringify(value);
}

/** The children of a non-empty object or array (`[0]`, `[1]`... for items); none for the rest. */
function nestedEntries(value: unknown): [string, unknown][] {
  if (Array.isArray(value)) return value.map((v, i) => [`[${i}]`, v]);
  if (value !== null && typeof value === 'object') return Object.entries(value);
  return [];
}
