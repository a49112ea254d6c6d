import {
  DASH,
  DQ,
  decline,
  FlowReader,
  HASH,
  LBRACE,
  LBRACKET,
  MAX_KEY,
  SPACE,
  SQ,
} from './plain-flow.js';
import { isStringKey, plainValue } from './plain-scalars.js';

/**
 * The loader's fastest path: a reader of the plain YAML most manifests are written in, a fifth
 * of js-yaml's CPU on the 100,000-document set (whose profile had js-yaml as the largest part of
 * `platctl validate`). It reads block mappings and sequences indented by spaces, keys of
 * `[A-Za-z0-9_./-]` starting with a letter or `_`, plain scalars, quoted scalars on one line
 * without escapes, and flow collections on one line; it declines (returns undefined) everything
 * else, and the caller goes on to the js-yaml path and then the `yaml` library as before. So it
 * must only ever give what the `yaml` library gives, for a source on which that library has
 * nothing to say: test/manifests/plain-path.test.ts compares them on generated sources.
 *
 * Declined besides: any character outside printable ASCII and newline (tabs, CR, non-ASCII,
 * control characters), `${` (substitution works on the node tree), duplicate keys, keys that
 * are no plain string, lines of spaces only, a root indented or not a collection, empty
 * documents other than after the last `---`, `...` and directives, multi-line scalars, and
 * anything the `yaml` library would report.
 */

const NOT_PLAIN = /[^\n\x20-\x7E]/;

/**
 * The documents of `text` as data, one entry per document as the `yaml` library counts them
 * (`null` for an empty one), or `undefined` when this path declines it. Pure; never throws.
 */
export function plainDocuments(text: string, maxDepth: number): unknown[] | undefined {
  // two scans, not the pattern with `|\$\{`: a third faster over 36 MB of manifests
  if (NOT_PLAIN.test(text) || text.includes('${')) return undefined;
  try {
    return new PlainReader(text, maxDepth).documents();
  } catch {
    return undefined; // declined, or nested past the stack: the other paths judge it
  }
}

/** A cursor over the lines of one source: the current line's start, indentation and end. */
class PlainReader extends FlowReader {
  start = 0;
  indent = 0;
  /** Where the current line's content starts (after its indentation). */
  cs = 0;
  end = 0;
  #blockDepth = 0;

  constructor(text: string, maxDepth: number) {
    super(text, maxDepth);
    this.load(0);
  }

  get done(): boolean {
    return this.start >= this.text.length;
  }

  load(start: number): void {
    const t = this.text;
    let cs = start;
    while (t.charCodeAt(cs) === SPACE) cs++;
    let end = t.indexOf('\n', cs);
    if (end === -1) end = t.length;
    this.start = start;
    this.cs = cs;
    this.indent = cs - start;
    this.end = end;
  }

  /** Moves to the first line at or after the current one holding content (past blanks and comments). */
  skip(): void {
    const t = this.text;
    while (!this.done) {
      if (this.cs === this.end) {
        if (this.indent > 0) decline(); // a line of spaces only
      } else if (t.charCodeAt(this.cs) !== HASH) return;
      this.load(this.end + 1);
    }
  }

  next(): void {
    this.load(this.end + 1);
    this.skip();
  }

  isMarker(): boolean {
    return (
      this.indent === 0 && this.end - this.start === 3 && this.text.startsWith('---', this.start)
    );
  }

  isSeqEntry(): boolean {
    const t = this.text;
    const cs = this.cs;
    return t.charCodeAt(cs) === DASH && (cs + 1 === this.end || t.charCodeAt(cs + 1) === SPACE);
  }

  documents(): unknown[] {
    const docs: unknown[] = [];
    this.skip();
    let explicit = false; // the document now open started with `---`
    if (!this.done && this.isMarker()) {
      explicit = true;
      this.next();
    }
    while (!this.done) {
      if (this.isMarker()) decline(); // an empty document before another
      if (this.indent !== 0) decline();
      docs.push(this.block(0));
      explicit = false;
      if (this.done) break;
      if (!this.isMarker()) decline();
      explicit = true;
      this.next();
    }
    if (explicit) docs.push(null);
    return docs;
  }

  block(n: number): unknown {
    return this.isSeqEntry() ? this.sequence(n) : this.mapping(n);
  }

  /** The value after `key:` or `-` with nothing else on the line: what the lines below hold. */
  nested(n: number, sameIndentSeq: boolean): unknown {
    this.next();
    if (this.done || this.indent < n) return null;
    if (this.indent === n) return sameIndentSeq && this.isSeqEntry() ? this.sequence(n) : null;
    return this.block(this.indent);
  }

  mapping(n: number): Record<string, unknown> {
    const t = this.text;
    const map: Record<string, unknown> = {};
    this.#enterBlock();
    while (!this.done && this.indent === n) {
      const cs = this.cs;
      const colon = this.keyEnd(cs, this.end);
      if (colon === -1) {
        if (this.isMarker()) break;
        decline();
      }
      const key = this.keyAt(cs, colon);
      if (colon - cs > MAX_KEY || !isStringKey(key) || Object.hasOwn(map, key)) decline();
      let p = colon + 1;
      while (t.charCodeAt(p) === SPACE) p++;
      map[key] =
        p === this.end || t.charCodeAt(p) === HASH ? this.nested(n, true) : this.inline(p, n);
    }
    this.#blockDepth--;
    return map;
  }

  sequence(n: number): unknown[] {
    const t = this.text;
    const list: unknown[] = [];
    this.#enterBlock();
    while (!this.done && this.indent === n && this.isSeqEntry()) {
      let p = this.cs + 1;
      while (t.charCodeAt(p) === SPACE) p++;
      if (p >= this.end || t.charCodeAt(p) === HASH) list.push(this.nested(n, false));
      else if (this.keyEnd(p, this.end) !== -1) {
        // `- key: value`: a mapping whose keys stand where this one does
        this.indent = p - this.start;
        this.cs = p;
        list.push(this.mapping(this.indent));
      } else list.push(this.inline(p, n));
    }
    this.#blockDepth--;
    return list;
  }

  /** A value written on the line after its key or `-`; no line below may be indented more. */
  inline(p: number, n: number): unknown {
    const t = this.text;
    const end = this.end;
    let value: unknown;
    const c = t.charCodeAt(p);
    if (c === DQ || c === SQ || c === LBRACKET || c === LBRACE) {
      value = this.flowValue(p, end);
      let a = this.after;
      while (t.charCodeAt(a) === SPACE) a++;
      if (a !== end && !(t.charCodeAt(a) === HASH && a > this.after)) decline();
    } else value = plainValue(this.plainBlock(p, end));
    this.next();
    if (!this.done && this.indent > n) decline(); // a scalar going on, or an indentation error
    return value;
  }

  // Nesting is bounded as the loader's pre-scan (`tooDeepAt`) bounds it, so that a source this
  // path takes needs no pre-scan: that scan counts each block level once (and a `- ` before a
  // key once more) and each open bracket outside quotes (see FlowReader), on the lines read here.
  #enterBlock(): void {
    if (++this.#blockDepth + 1 > this.maxDepth) decline();
  }
}
