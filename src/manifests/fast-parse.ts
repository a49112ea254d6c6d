import { createRequire } from 'node:module';

type JsYaml = typeof import('js-yaml');

// js-yaml is loaded on first use, not imported: the plain path (`plain-yaml.ts`) takes most
// sources, and a validate that never comes here need not load it. It is CommonJS for Node, so
// `require` returns the very module an `import` of it would.
const require = createRequire(import.meta.url);

/**
 * The loader's fast path: plain data from a source that can only mean one thing, through js-yaml
 * (an order of magnitude less CPU than building the `yaml` library's node tree, which the profile
 * of a 10,000-document load showed taking most of the time).
 *
 * Semantics stay the `yaml` library's (YAML 1.2 core schema, as `parseSource` uses it): the schema
 * below resolves plain scalars with that library's own patterns and conversions, and every source
 * where the two parsers could differ or where the slow path has something to say is declined, so
 * the caller parses it with `yaml` as before. Declined: any js-yaml error (duplicate keys, syntax),
 * `${` (substitution works on the node tree), anchors, aliases and tags (alias limits, custom tags),
 * directives, keys that are not strings or numbers (explicit `?`, a flow collection, null: the
 * libraries turn them into different strings), merge keys, tabs and carriage returns (where whitespace rules are the
 * subtlest), document end markers, sequences nested on one line, and block scalars with `+` or an
 * indentation indicator, lines of spaces only, `#` right after a closing bracket or quote, and
 * quoted scalars over several lines (where the property test found js-yaml reading differently).
 */

const DECLINE = new RegExp(
  [
    /\$\{|[&*!\t\r]|<<|^%/.source, // substitution, anchors, aliases, tags, tabs, CR, merge, directives
    /^\.\.\.|^\s*-\s+-(\s|$)/.source, // document end markers; sequences nested on one line
    /[|>][-+0-9]*[+0-9]/.source, // block scalars that keep final newlines or state their indentation
    /^ +$|[\]}"']#/.source, // lines of spaces only; a comment not set off by a space
    /(^|[\s[{,])\?(\s|$)/.source, // explicit keys
    /[\]}]\s*:(\s|$|[,\]}])/.source, // a flow collection as a key
    /(^\s*(-\s+)*|[[{,]\s*)(~|null|Null|NULL)?\s*:(\s|$|[,\]}])/.source, // a null key
  ].join('|'),
  'm',
);

const asNumber = (resolve: (s: string) => number) => ({
  kind: 'scalar' as const,
  construct: (s: string) => resolve(s),
  predicate: (v: unknown) => typeof v === 'number',
});

/** Whether `s` starts with a digit, `+` or `-` (or `.`, with `dot`): what every number does. */
function numberStart(s: string, dot: boolean): boolean {
  const c = s.charCodeAt(0);
  return (c >= 48 && c <= 57) || c === 43 || c === 45 || (dot && c === 46);
}

/** js-yaml, and the schema below made with it, on first use. */
let loaded: { jsYaml: JsYaml; schema: ReturnType<JsYaml['FAILSAFE_SCHEMA']['extend']> } | undefined;
function lib() {
  if (!loaded) {
    const jsYaml = require('js-yaml') as JsYaml;
    loaded = { jsYaml, schema: core12(jsYaml) };
  }
  return loaded;
}

/**
 * `yaml` 2's core schema (src/schema/core): the same tests, the same conversions. js-yaml asks
 * each type about every plain scalar, in turn, and most scalars are names: each test first rules
 * them out by length or first character, which its pattern implies, before running the pattern.
 */
const core12 = (jsYaml: JsYaml) =>
  jsYaml.FAILSAFE_SCHEMA.extend({
    implicit: [
      new jsYaml.Type('tag:yaml.org,2002:null', {
        kind: 'scalar',
        resolve: (s: string) => s.length <= 4 && /^(?:~|[Nn]ull|NULL)?$/.test(s),
        construct: () => null,
        predicate: (v: unknown) => v === null,
      }),
      new jsYaml.Type('tag:yaml.org,2002:bool', {
        kind: 'scalar',
        resolve: (s: string) => s.length <= 5 && /^(?:[Tt]rue|TRUE|[Ff]alse|FALSE)$/.test(s),
        construct: (s: string) => s[0] === 't' || s[0] === 'T',
        predicate: (v: unknown) => typeof v === 'boolean',
      }),
      new jsYaml.Type('tag:yaml.org,2002:int', {
        ...asNumber((s) =>
          s.startsWith('0o')
            ? Number.parseInt(s.substring(2), 8)
            : s.startsWith('0x')
              ? Number.parseInt(s.substring(2), 16)
              : Number.parseInt(s, 10),
        ),
        resolve: (s: string) =>
          numberStart(s, false) && /^(?:[-+]?[0-9]+|0o[0-7]+|0x[0-9a-fA-F]+)$/.test(s),
      }),
      new jsYaml.Type('tag:yaml.org,2002:float', {
        ...asNumber((s) =>
          /^[-+]?\.(?:inf|Inf|INF)$/.test(s)
            ? s[0] === '-'
              ? Number.NEGATIVE_INFINITY
              : Number.POSITIVE_INFINITY
            : /^\.(?:nan|NaN|NAN)$/.test(s)
              ? Number.NaN
              : Number.parseFloat(s),
        ),
        resolve: (s: string) =>
          numberStart(s, true) &&
          (/^(?:[-+]?\.(?:inf|Inf|INF)|\.nan|\.NaN|\.NAN)$/.test(s) ||
            /^[-+]?(?:\.[0-9]+|[0-9]+(?:\.[0-9]*)?)[eE][-+]?[0-9]+$/.test(s) ||
            /^[-+]?(?:\.[0-9]+|[0-9]+\.[0-9]*)$/.test(s)),
      }),
    ],
  });

/**
 * Whether some line holds an odd number of `"` (not counting `\"`) or of `'`: a quoted scalar
 * may go on to the next line, where the two libraries judge indentation differently. An
 * apostrophe in a plain scalar (`it's`) declines too; that costs only speed.
 */
export function quoteSpansLines(text: string): boolean {
  // Visits only the quotes (indexOf jumps between them) rather than every character. A `"` after
  // an odd run of backslashes is escaped: scanning left to right, a backslash pairs with the
  // backslash or `"` after it, so within a run they pair from its start.
  let dq = text.indexOf('"');
  let sq = text.indexOf("'");
  let lineEnd = -1; // where the line of the quotes counted so far ends (its \n, or the text's end)
  let double = 0;
  let single = 0;
  while (dq !== -1 || sq !== -1) {
    const q = dq === -1 ? sq : sq === -1 ? dq : Math.min(dq, sq);
    if (q > lineEnd) {
      if (double % 2 === 1 || single % 2 === 1) return true;
      double = 0;
      single = 0;
      lineEnd = text.indexOf('\n', q);
      if (lineEnd === -1) lineEnd = text.length;
    }
    if (q === sq) {
      single++;
      sq = text.indexOf("'", q + 1);
    } else {
      let k = q - 1;
      while (k >= 0 && text.charCodeAt(k) === 92) k--;
      if ((q - 1 - k) % 2 === 0) double++;
      dq = text.indexOf('"', q + 1);
    }
  }
  return double % 2 === 1 || single % 2 === 1;
}

/**
 * The documents of `text` as data, one entry per document as the `yaml` library counts them
 * (`null` for an empty one), or `undefined` when this path declines the source (see the module
 * comment): the caller then parses it with the `yaml` library. Pure; never throws.
 */
export function fastDocuments(text: string): unknown[] | undefined {
  if (DECLINE.test(text) || quoteSpansLines(text)) return undefined;
  try {
    const { jsYaml, schema } = lib();
    return jsYaml.loadAll(text, undefined, { schema }) as unknown[];
  } catch {
    return undefined;
  }
}
