import {
  isIndicatorStart,
  isKeyChar,
  isKeyStart,
  isStringKey,
  plainValue,
} from './plain-scalars.js';

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

const NOT_PLAIN = /[^\n\x20-\x7E]|\$\{/;
const [SPACE, HASH, DASH, COLON, COMMA] = [32, 35, 45, 58, 44];
const [DQ, SQ, BACKSLASH] = [34, 39, 92];
const [LBRACKET, RBRACKET, LBRACE, RBRACE] = [91, 93, 123, 125];
/** Longest implicit key YAML allows is 1024 characters; the libraries report longer ones. */
const MAX_KEY = 1000;

/** Thrown inside the reader to decline the source; never leaves this module. */
const DECLINED = new Error('declined');
function decline(): never {
  throw DECLINED;
}

/**
 * The documents of `text` as data, one entry per document as the `yaml` library counts them
 * (`null` for an empty one), or `undefined` when this path declines it. Pure; never throws.
 */
export function plainDocuments(text: string): unknown[] | undefined {
  if (NOT_PLAIN.test(text)) return undefined;
  try {
    return new PlainReader(text).documents();
  } catch {
    return undefined; // declined, or nested past the stack: the other paths judge it
  }
}

/** A cursor over the lines of one source: the current line's start, indentation and end. */
class PlainReader {
  readonly #text: string;
  start = 0;
  indent = 0;
  /** Where the current line's content starts (after its indentation). */
  cs = 0;
  end = 0;
  /** Where the value read last ends. */
  after = 0;

  constructor(text: string) {
    this.#text = text;
    this.load(0);
  }

  get done(): boolean {
    return this.start >= this.#text.length;
  }

  load(start: number): void {
    const t = this.#text;
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
    const t = this.#text;
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
      this.indent === 0 && this.end - this.start === 3 && this.#text.startsWith('---', this.start)
    );
  }

  isSeqEntry(): boolean {
    const t = this.#text;
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

  /** Where the key starting at `p` ends (its `:`), or -1 when no plain key starts there. */
  keyEnd(p: number): number {
    const t = this.#text;
    if (!isKeyStart(t.charCodeAt(p))) return -1;
    let q = p + 1;
    while (isKeyChar(t.charCodeAt(q))) q++;
    if (t.charCodeAt(q) !== COLON) return -1;
    const c = t.charCodeAt(q + 1);
    return c === SPACE || q + 1 === this.end ? q : -1;
  }

  mapping(n: number): Record<string, unknown> {
    const t = this.#text;
    const map: Record<string, unknown> = {};
    while (!this.done && this.indent === n) {
      const cs = this.cs;
      const colon = this.keyEnd(cs);
      if (colon === -1) {
        if (this.isMarker()) break;
        decline();
      }
      const key = t.slice(cs, colon);
      if (colon - cs > MAX_KEY || !isStringKey(key) || Object.hasOwn(map, key)) decline();
      let p = colon + 1;
      while (t.charCodeAt(p) === SPACE) p++;
      map[key] =
        p === this.end || t.charCodeAt(p) === HASH ? this.nested(n, true) : this.inline(p, n);
    }
    return map;
  }

  sequence(n: number): unknown[] {
    const t = this.#text;
    const list: unknown[] = [];
    while (!this.done && this.indent === n && this.isSeqEntry()) {
      let p = this.cs + 1;
      while (t.charCodeAt(p) === SPACE) p++;
      if (p >= this.end || t.charCodeAt(p) === HASH) list.push(this.nested(n, false));
      else if (this.keyEnd(p) !== -1) {
        // `- key: value`: a mapping whose keys stand where this one does
        this.indent = p - this.start;
        this.cs = p;
        list.push(this.mapping(this.indent));
      } else list.push(this.inline(p, n));
    }
    return list;
  }

  /** A value written on the line after its key or `-`; no line below may be indented more. */
  inline(p: number, n: number): unknown {
    const t = this.#text;
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

  /** A plain scalar in block context, up to its comment or the line's end. */
  plainBlock(p: number, end: number): string {
    const t = this.#text;
    const c = t.charCodeAt(p);
    // `- ` or a `-` alone would be a sequence where no node may start one
    if (isIndicatorStart(c) || (c === DASH && (t.charCodeAt(p + 1) === SPACE || p + 1 === end))) {
      decline();
    }
    let stop = end;
    for (let i = p; i < end; i++) {
      const d = t.charCodeAt(i);
      if (d === COLON) {
        const e = t.charCodeAt(i + 1);
        if (e === SPACE || i + 1 === end) decline(); // a mapping where a scalar was expected
      } else if (d === HASH && t.charCodeAt(i - 1) === SPACE) {
        stop = i;
        break;
      }
    }
    while (t.charCodeAt(stop - 1) === SPACE) stop--;
    return t.slice(p, stop);
  }

  /** A quoted scalar, flow collection or (inside one) plain scalar at `p`; sets {@link after}. */
  flowValue(p: number, end: number): unknown {
    const t = this.#text;
    const c = t.charCodeAt(p);
    if (c === DQ) {
      let q = p + 1;
      for (let d = t.charCodeAt(q); d !== DQ; d = t.charCodeAt(++q)) {
        if (d === BACKSLASH || q >= end) decline(); // escapes, or the line ends first
      }
      this.after = q + 1;
      return t.slice(p + 1, q);
    }
    if (c === SQ) {
      let q = p + 1;
      let doubled = false;
      for (;;) {
        q = t.indexOf("'", q);
        if (q === -1 || q >= end) decline();
        if (t.charCodeAt(q + 1) !== SQ) break;
        doubled = true;
        q += 2;
      }
      this.after = q + 1;
      const s = t.slice(p + 1, q);
      return doubled ? s.replaceAll("''", "'") : s;
    }
    if (c === LBRACKET) return this.flowSeq(p + 1, end);
    if (c === LBRACE) return this.flowMap(p + 1, end);
    return plainValue(this.plainFlow(p, end));
  }

  /** A plain scalar inside a flow collection, up to `,`, `]` or `}`; sets {@link after}. */
  plainFlow(p: number, end: number): string {
    const t = this.#text;
    const c = t.charCodeAt(p);
    const c1 = t.charCodeAt(p + 1);
    if (isIndicatorStart(c) || c === DQ || c === SQ) decline();
    if (c === DASH && (c1 === SPACE || c1 === COMMA || c1 === RBRACKET || c1 === RBRACE)) decline();
    let i = p;
    for (; i < end; i++) {
      const d = t.charCodeAt(i);
      if (d === COMMA || d === RBRACKET || d === RBRACE) break;
      if (d === LBRACKET || d === LBRACE) decline();
      if (d === COLON) {
        const e = t.charCodeAt(i + 1);
        if (i + 1 >= end || e === SPACE || e === COMMA || e === RBRACKET || e === RBRACE) decline();
      } else if (d === HASH && t.charCodeAt(i - 1) === SPACE) decline();
    }
    if (i >= end) decline(); // the collection goes on past the line
    this.after = i;
    let stop = i;
    while (t.charCodeAt(stop - 1) === SPACE) stop--;
    return t.slice(p, stop);
  }

  /** The entries of a flow collection from `p` (after its bracket) to its closing `close`. */
  flowEntries(p: number, end: number, close: number, entry: (at: number) => void): void {
    const t = this.#text;
    while (t.charCodeAt(p) === SPACE) p++;
    if (t.charCodeAt(p) === close) {
      this.after = p + 1;
      return;
    }
    for (;;) {
      entry(p);
      p = this.after;
      while (t.charCodeAt(p) === SPACE) p++;
      const c = t.charCodeAt(p);
      if (c === close) break;
      if (c !== COMMA) decline();
      p++;
      while (t.charCodeAt(p) === SPACE) p++;
      if (p >= end || t.charCodeAt(p) === close) decline(); // a trailing comma
    }
    this.after = p + 1;
  }

  flowSeq(p: number, end: number): unknown[] {
    const list: unknown[] = [];
    this.flowEntries(p, end, RBRACKET, (at) => list.push(this.flowValue(at, end)));
    return list;
  }

  flowMap(p: number, end: number): Record<string, unknown> {
    const t = this.#text;
    const map: Record<string, unknown> = {};
    this.flowEntries(p, end, RBRACE, (at) => {
      const colon = this.keyEnd(at);
      if (colon === -1 || t.charCodeAt(colon + 1) !== SPACE) decline();
      const key = t.slice(at, colon);
      if (colon - at > MAX_KEY || !isStringKey(key) || Object.hasOwn(map, key)) decline();
      let v = colon + 2;
      while (t.charCodeAt(v) === SPACE) v++;
      if (v >= end) decline();
      map[key] = this.flowValue(v, end);
    });
    return map;
  }
}
