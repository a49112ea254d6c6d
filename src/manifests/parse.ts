import type { Document, Scalar, YAMLError } from 'yaml';
import { yamlLib } from '../core/yaml-lib.js';
import type { SourcePosition } from '../model/manifest.js';
import { tooDeepAt } from './depth.js';
import type { Diagnostic, DiagnosticCode } from './diagnostics.js';
import { fastDocuments } from './fast-parse.js';
import { plainDocuments } from './plain-yaml.js';
import { LazyPositions, linePos, lineStarts } from './positions.js';
import type { SourceText } from './source-text.js';
import {
  missingVariable,
  refusedResult,
  substituteString as substituteInNode,
  type VarLookup,
} from './variables.js';

type JsonPath = readonly (string | number)[];

export { linePos, lineStarts } from './positions.js';

/**
 * One non-empty YAML document, converted to plain data, and where its nodes are (found when first
 * asked, see {@link LazyPositions}: a clean load builds no positions).
 */
export interface ParsedDocument {
  file: string;
  /** 0-based index of the document in its file. */
  index: number;
  data: unknown;
  /** Where the document's content starts. */
  source: SourcePosition;
  /** Position of the value at `path`, else of its nearest ancestor, else {@link source}. */
  positionOf(path: JsonPath): SourcePosition;
  /** Position of the key naming `path` (for unknown fields), else {@link positionOf}. */
  keyPositionOf(path: JsonPath): SourcePosition;
  /** The text of the scalar at `path` as written (`1.30`), if one is there. */
  scalarTextOf(path: JsonPath): string | undefined;
}

const MAX_YAML_DIAGNOSTICS = 20;

const YAML_CODES: Partial<Record<YAMLError['code'], DiagnosticCode>> = {
  DUPLICATE_KEY: 'yaml-duplicate-key',
  TAB_AS_INDENT: 'yaml-tab',
  BAD_INDENT: 'yaml-indent',
  RESOURCE_EXHAUSTION: 'yaml-alias-limit',
};

/**
 * Parses one source into its non-empty documents, substituting `${VAR}`s in scalar values (not
 * keys). YAML errors, undefined variables and alias bombs become diagnostics; a document with any
 * of them is dropped. A source with nothing to substitute or report takes the fast path
 * ({@link fastDocuments}); every other source is parsed with the `yaml` library's node tree.
 * Pure apart from `lookup`; never throws.
 */
export function parseSource(
  src: SourceText,
  lookup: VarLookup,
  limits: { maxAliasCount: number; maxDepth: number },
): { docs: ParsedDocument[]; diagnostics: Diagnostic[] } {
  const { maxAliasCount, maxDepth } = limits;
  const docs: ParsedDocument[] = [];
  const diagnostics: Diagnostic[] = [];
  // Our own line index: yaml's LineCounter misses newlines inside flow collections. Built only
  // when something is reported: the fast path reports nothing.
  let starts: number[] | undefined;
  const at = (offset: number): SourcePosition => {
    starts ??= lineStarts(src.text);
    return { file: src.file, ...linePos(starts, offset) };
  };
  // The plain path bounds nesting as the pre-scan below does: what it takes needs no pre-scan.
  const plain = plainDocuments(src.text, maxDepth);
  if (plain) return { docs: presentDocuments(src, plain), diagnostics };
  const deep = tooDeepAt(src.text, maxDepth);
  if (deep !== undefined) {
    const message = `nesting deeper than ${maxDepth} levels; file refused`;
    return {
      docs,
      diagnostics: [{ severity: 'error', code: 'yaml-too-deep', message, ...at(deep) }],
    };
  }
  const fast = fastDocuments(src.text);
  if (fast) return { docs: presentDocuments(src, fast), diagnostics };
  const all = yamlLib().parseAllDocuments(src.text, {
    prettyErrors: false,
    uniqueKeys: true,
    logLevel: 'error',
  });
  const list = Array.isArray(all) ? all : [];
  const hasVars = src.text.includes('${');
  let yamlDiags = 0;
  for (const [index, doc] of list.entries()) {
    let bad = false;
    for (const e of [...doc.errors, ...doc.warnings]) {
      const error = e.name === 'YAMLParseError';
      bad ||= error;
      // One broken line can cascade into hundreds of errors; the first few are the useful ones.
      if (++yamlDiags > MAX_YAML_DIAGNOSTICS) continue;
      diagnostics.push({
        severity: error ? 'error' : 'warning',
        code: /call stack/.test(e.message)
          ? 'yaml-too-deep'
          : (YAML_CODES[e.code] ?? 'yaml-syntax'),
        message: e.message.replace(/\s+/g, ' ').replace(/ at line \d+, column \d+:?.*$/, ''),
        ...at(e.pos[0]),
      });
    }
    if (bad || doc.contents === null) continue;
    const source = at(doc.contents.range?.[0] ?? 0);
    // Most files hold no `${`: skip walking their trees.
    bad =
      hasVars &&
      substitute(doc, lookup, (problem, node) =>
        diagnostics.push({
          severity: 'error',
          ...('missing' in problem
            ? missingVariable(lookup, problem.missing)
            : refusedResult(problem.refused)),
          ...at(node.range?.[0] ?? 0),
        }),
      );
    let data: unknown;
    try {
      data = doc.toJS({ maxAliasCount });
    } catch (e) {
      diagnostics.push({
        severity: 'error',
        code: 'yaml-alias-limit',
        message: `document expands more than ${maxAliasCount} aliases; refused (${(e as Error).message})`,
        ...source,
      });
      continue;
    }
    if (bad || data === null || data === undefined) continue;
    docs.push(documentOf(src, index, data, source));
  }
  if (yamlDiags > MAX_YAML_DIAGNOSTICS) {
    const message = `${yamlDiags - MAX_YAML_DIAGNOSTICS} more YAML problems in this file not shown`;
    diagnostics.push({ severity: 'error', code: 'yaml-syntax', message, file: src.file });
  }
  return { docs, diagnostics };
}

/** A `${VAR}` with no value, or substituted text holding a credential (by the names used). */
type SubstitutionProblem = { missing: string } | { refused: readonly string[] };

/**
 * Replaces `${VAR}` in string scalars; returns true when some variable was undefined or some
 * substituted text holds a refused value (left unsubstituted, so the value is nowhere).
 */
function substitute(
  doc: Document,
  lookup: VarLookup,
  onProblem: (problem: SubstitutionProblem, node: Scalar) => void,
): boolean {
  let bad = false;
  yamlLib().visit(doc, {
    Scalar(key, node) {
      if (key === 'key' || typeof node.value !== 'string') return;
      const r = substituteInNode(node.value, lookup);
      for (const name of r.missing) onProblem({ missing: name }, node);
      if (r.refused) onProblem({ refused: r.used }, node);
      bad ||= r.missing.length > 0 || r.refused;
      if (!r.changed || r.refused) return;
      // A plain scalar is re-typed as YAML would have typed the substituted text (`size: ${N}`).
      node.value = node.type === 'PLAIN' ? retype(r.value) : r.value;
    },
  });
  return bad;
}

function retype(text: string): unknown {
  try {
    const v: unknown = yamlLib().parse(text);
    return v === null || typeof v === 'object' ? text : v;
  } catch {
    return text;
  }
}

/**
 * A parsed document whose positions are found when first asked. A class, so that every document
 * shares one hidden class: as an object literal with a `source` getter and two arrow functions,
 * each document got a hidden class of its own (≈ 700 bytes; 70 MB of 100,000 documents).
 */
class LazyDocument extends LazyPositions implements ParsedDocument {
  readonly file: string;
  readonly index: number;
  data: unknown;

  constructor(src: SourceText, index: number, data: unknown, source?: SourcePosition) {
    super(src, index, source);
    this.file = src.file;
    this.index = index;
    this.data = data;
  }
}

function documentOf(
  src: SourceText,
  index: number,
  data: unknown,
  source?: SourcePosition,
): ParsedDocument {
  return new LazyDocument(src, index, data, source);
}

/** The documents of a fast path's list that hold something, with their indexes in the file. */
function presentDocuments(src: SourceText, all: unknown[]): ParsedDocument[] {
  const docs: ParsedDocument[] = [];
  for (let index = 0; index < all.length; index++) {
    const data = all[index];
    if (data !== null && data !== undefined) docs.push(documentOf(src, index, data));
  }
  return docs;
}
