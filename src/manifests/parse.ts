import {
  type Document,
  isAlias,
  isMap,
  isScalar,
  isSeq,
  type Node,
  parse,
  parseAllDocuments,
  type Scalar,
  visit,
  type YAMLError,
} from 'yaml';
import { tooDeepAt } from './depth.js';
import type { Diagnostic, DiagnosticCode } from './diagnostics.js';
import type { SourceText } from './files.js';
import type { SourcePosition } from './types.js';
import {
  missingVariable,
  substituteString as substituteInNode,
  type VarLookup,
} from './variables.js';

type JsonPath = readonly (string | number)[];

/** One non-empty YAML document, converted to plain data, with the position of every node. */
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
}

const ptr = (path: JsonPath): string => path.join('\u0000');

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
 * of them is dropped. Pure apart from `lookup`; never throws.
 */
export function parseSource(
  src: SourceText,
  lookup: VarLookup,
  limits: { maxAliasCount: number; maxDepth: number },
): { docs: ParsedDocument[]; diagnostics: Diagnostic[] } {
  const { maxAliasCount, maxDepth } = limits;
  const docs: ParsedDocument[] = [];
  const diagnostics: Diagnostic[] = [];
  // Our own line index: yaml's LineCounter misses newlines inside flow collections.
  const starts = lineStarts(src.text);
  const at = (offset: number): SourcePosition => ({ file: src.file, ...linePos(starts, offset) });
  const deep = tooDeepAt(src.text, maxDepth);
  if (deep !== undefined) {
    const message = `nesting deeper than ${maxDepth} levels; file refused`;
    return {
      docs,
      diagnostics: [{ severity: 'error', code: 'yaml-too-deep', message, ...at(deep) }],
    };
  }
  const all = parseAllDocuments(src.text, { prettyErrors: false, uniqueKeys: true });
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
      substitute(doc, lookup, (name, node) =>
        diagnostics.push({
          severity: 'error',
          ...missingVariable(lookup, name),
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
    const values = new Map<string, SourcePosition>();
    const keys = new Map<string, SourcePosition>();
    indexPositions(doc.contents, [], at, values, keys);
    const positionOf = (path: JsonPath): SourcePosition => {
      for (let n = path.length; n >= 0; n--) {
        const p = values.get(ptr(path.slice(0, n)));
        if (p) return p;
      }
      return source;
    };
    const keyPositionOf = (path: JsonPath) => keys.get(ptr(path)) ?? positionOf(path);
    docs.push({ file: src.file, index, data, source, positionOf, keyPositionOf });
  }
  if (yamlDiags > MAX_YAML_DIAGNOSTICS) {
    const message = `${yamlDiags - MAX_YAML_DIAGNOSTICS} more YAML problems in this file not shown`;
    diagnostics.push({ severity: 'error', code: 'yaml-syntax', message, file: src.file });
  }
  return { docs, diagnostics };
}

/** Replaces `${VAR}` in string scalars; returns true when some variable was undefined. */
function substitute(
  doc: Document,
  lookup: VarLookup,
  onMissing: (name: string, node: Scalar) => void,
): boolean {
  let missingAny = false;
  visit(doc, {
    Scalar(key, node) {
      if (key === 'key' || typeof node.value !== 'string') return;
      const r = substituteInNode(node.value, lookup);
      for (const name of r.missing) onMissing(name, node);
      missingAny ||= r.missing.length > 0;
      if (!r.changed) return;
      // A plain scalar is re-typed as YAML would have typed the substituted text (`size: ${N}`).
      node.value = node.type === 'PLAIN' ? retype(r.value) : r.value;
    },
  });
  return missingAny;
}

function retype(text: string): unknown {
  try {
    const v: unknown = parse(text);
    return v === null || typeof v === 'object' ? text : v;
  } catch {
    return text;
  }
}

function indexPositions(
  node: Node | null,
  path: (string | number)[],
  at: (offset: number) => SourcePosition,
  values: Map<string, SourcePosition>,
  keys: Map<string, SourcePosition>,
): void {
  if (!node || isAlias(node)) return;
  if (node.range) values.set(ptr(path), at(node.range[0]));
  if (isMap(node)) {
    for (const pair of node.items) {
      const k = pair.key as Node | null;
      const name = isScalar(k) ? String(k.value) : String(k);
      const child = [...path, name];
      if (k?.range) keys.set(ptr(child), at(k.range[0]));
      indexPositions(pair.value as Node | null, child, at, values, keys);
    }
  } else if (isSeq(node)) {
    node.items.forEach((item, i) => {
      indexPositions(item as Node | null, [...path, i], at, values, keys);
    });
  }
}

/** Offsets where each line starts (`\n`, `\r\n` or a lone `\r` ends a line). Pure. */
export function lineStarts(text: string): number[] {
  const starts = [0];
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 10 || (c === 13 && text.charCodeAt(i + 1) !== 10)) starts.push(i + 1);
  }
  return starts;
}

/** The 1-based line and column of an offset, given {@link lineStarts}. Pure. */
export function linePos(starts: readonly number[], offset: number): { line: number; col: number } {
  let lo = 0;
  let hi = starts.length - 1;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= offset) lo = mid;
    else hi = mid - 1;
  }
  return { line: lo + 1, col: offset - starts[lo]! + 1 };
}
