import type { Node } from 'yaml';
import { yamlLib } from '../core/yaml-lib.js';
import type { SourcePosition } from '../model/manifest.js';
import type { SourceText } from './source-text.js';

type JsonPath = readonly (string | number)[];

/**
 * Where the nodes of one document are, found when first asked: the file is parsed again with the
 * `yaml` library (the same options as the slow path, so the same tree) and the path is walked.
 * Loading builds no positions, so a clean load pays nothing for them and keeps no node trees; a
 * document with diagnostics costs one parse of its file (the last file parsed is kept, since
 * diagnostics come a document at a time).
 */
export class LazyPositions {
  readonly #src: SourceText;
  readonly #index: number;
  #source: SourcePosition | undefined;

  /** `source`, when the caller already knows where the document's content starts. */
  constructor(src: SourceText, index: number, source?: SourcePosition) {
    this.#src = src;
    this.#index = index;
    this.#source = source;
  }

  /** Where the document's content starts. */
  get source(): SourcePosition {
    this.#source ??= this.#at(this.#root()?.range?.[0] ?? 0);
    return this.#source;
  }

  /** Position of the value at `path`, else of its nearest ancestor, else {@link source}. */
  positionOf(path: JsonPath): SourcePosition {
    let found: SourcePosition | undefined;
    walk(this.#root(), path, (node) => {
      if (node && !yamlLib().isAlias(node) && node.range) found = this.#at(node.range[0]);
    });
    return found ?? this.source;
  }

  /** The text of the scalar at `path` as written in the file (`1.30`, not 1.3), if one is there. */
  scalarTextOf(path: JsonPath): string | undefined {
    let text: string | undefined;
    walk(this.#root(), path, (node, _key) => {
      text = yamlLib().isScalar(node) ? node.source : undefined;
    });
    return text;
  }

  /** Position of the key naming `path` (for unknown fields), else {@link positionOf}. */
  keyPositionOf(path: JsonPath): SourcePosition {
    let key: Node | null | undefined;
    let depth = 0;
    walk(this.#root(), path, (_node, k) => {
      depth++;
      if (depth === path.length + 1) key = k;
    });
    return key?.range ? this.#at(key.range[0]) : this.positionOf(path);
  }

  #root(): Node | null {
    return parsed(this.#src).docs[this.#index]?.contents ?? null;
  }

  #at(offset: number): SourcePosition {
    return { file: this.#src.file, ...linePos(parsed(this.#src).starts, offset) };
  }
}

/**
 * Calls `visit` for the root and for each node along `path` while the path leads somewhere (not
 * through an alias), with the key node that named it. Where a map names a key twice, the last
 * pair wins, as it does in the data.
 */
function walk(
  root: Node | null,
  path: JsonPath,
  visit: (node: Node | null, key: Node | null | undefined) => void,
): void {
  const { isAlias, isMap, isScalar, isSeq } = yamlLib();
  let node: Node | null = root;
  if (!node || isAlias(node)) return;
  visit(node, undefined);
  for (const segment of path) {
    let next: Node | null | undefined;
    let key: Node | null | undefined;
    if (isMap(node)) {
      for (const pair of node.items) {
        const k = pair.key as Node | null;
        if ((isScalar(k) ? String(k.value) : String(k)) === String(segment)) {
          next = pair.value as Node | null;
          key = k;
        }
      }
    } else if (isSeq(node)) {
      const i = Number(segment);
      if (String(i) === String(segment)) next = node.items[i] as Node | null | undefined;
    }
    if (next === undefined) return;
    visit(next, key);
    if (!next || isAlias(next)) return;
    node = next;
  }
}

let last: { src: SourceText; docs: { contents: Node | null }[]; starts: number[] } | undefined;

function parsed(src: SourceText) {
  if (last?.src !== src) {
    const text = src.text; // once: a source validate let go of is read from its file again
    const all = yamlLib().parseAllDocuments(text, {
      prettyErrors: false,
      uniqueKeys: true,
      logLevel: 'error',
    });
    last = { src, docs: Array.isArray(all) ? all : [], starts: lineStarts(text) };
  }
  return last;
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
