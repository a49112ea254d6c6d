import {
  isIndicatorStart,
  isKeyChar,
  isKeyStart,
  isStringKey,
  plainValue,
} from './plain-scalars.js';

/**
 * What the plain YAML path (`plain-yaml.ts`) reads within one line: keys, plain scalars, quoted
 * scalars without escapes, and flow collections that close on the line they open. Every reader
 * here ends at or before the line's `end` or declines.
 */

export const [SPACE, HASH, DASH, DQ, SQ, LBRACKET, LBRACE] = [32, 35, 45, 34, 39, 91, 123];
const [COLON, COMMA, BACKSLASH, RBRACKET, RBRACE] = [58, 44, 92, 93, 125];
/** Longest implicit key YAML allows is 1024 characters; the libraries report longer ones. */
export const MAX_KEY = 1000;

/** Thrown inside the reader to decline the source; never leaves `plainDocuments`. */
const DECLINED = new Error('declined');
export function decline(): never {
  throw DECLINED;
}

/**
 * The keys read last, by first character and length: the few keys manifests repeat (`name`,
 * `value`, `apiVersion`, ...) are then one string each, not a slice of the text per document,
 * which V8 had to look up in its string table for every property set. Each is a copy holding
 * nothing else (a slice of 13 characters or more would keep its file's text alive).
 */
const KEYS: (string | undefined)[] = new Array(128 * 64);

/** The part of the plain reader that reads within a line; `after` is where its last value ended. */
export class FlowReader {
  protected readonly text: string;
  protected readonly maxDepth: number;
  /** Where the value read last ends. */
  after = 0;
  protected flowDepth = 0;

  constructor(text: string, maxDepth: number) {
    this.text = text;
    this.maxDepth = maxDepth;
  }

  /** Where the key starting at `p` ends (its `:`), or -1 when no plain key starts there. */
  keyEnd(p: number, end: number): number {
    const t = this.text;
    if (!isKeyStart(t.charCodeAt(p))) return -1;
    let q = p + 1;
    while (isKeyChar(t.charCodeAt(q))) q++;
    if (t.charCodeAt(q) !== COLON) return -1;
    return t.charCodeAt(q + 1) === SPACE || q + 1 === end ? q : -1;
  }

  /** The key from `p` to `q` (its `:`), as the string read last for such a key when it is the same. */
  keyAt(p: number, q: number): string {
    const t = this.text;
    const length = q - p;
    if (length >= 64) return t.slice(p, q);
    const slot = ((t.charCodeAt(p) & 127) << 6) | length;
    const known = KEYS[slot];
    if (known !== undefined && t.startsWith(known, p)) return known;
    const key = ` ${t.slice(p, q)}`.slice(1);
    KEYS[slot] = key;
    return key;
  }

  /** A plain scalar in block context, up to its comment or the line's end. */
  plainBlock(p: number, end: number): string {
    const t = this.text;
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
      } else if (d === LBRACKET || d === LBRACE) decline(); // the pre-scan counts these as flow
    }
    while (t.charCodeAt(stop - 1) === SPACE) stop--;
    return t.slice(p, stop);
  }

  /** A quoted scalar, flow collection or (inside one) plain scalar at `p`; sets {@link after}. */
  flowValue(p: number, end: number): unknown {
    const t = this.text;
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
    const t = this.text;
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

  /**
   * Where the first entry of a flow collection starts, from `p` (after its bracket), or -1 when
   * it closes with `close` at once ({@link after} then past it). A loop of this and
   * {@link nextEntry}, not a callback per entry: a closure per collection was a fifth of what
   * reading the 100,000-document set allocated.
   */
  firstEntry(p: number, close: number): number {
    const t = this.text;
    while (t.charCodeAt(p) === SPACE) p++;
    if (t.charCodeAt(p) !== close) return p;
    this.after = p + 1;
    return -1;
  }

  /** Where the entry after the one read last starts, or -1 after `close` ({@link after} past it). */
  nextEntry(end: number, close: number): number {
    const t = this.text;
    let p = this.after;
    while (t.charCodeAt(p) === SPACE) p++;
    const c = t.charCodeAt(p);
    if (c === close) {
      this.after = p + 1;
      return -1;
    }
    if (c !== COMMA) decline();
    p++;
    while (t.charCodeAt(p) === SPACE) p++;
    if (p >= end || t.charCodeAt(p) === close) decline(); // a trailing comma
    return p;
  }

  flowSeq(p: number, end: number): unknown[] {
    const list: unknown[] = [];
    this.enterFlow();
    for (let at = this.firstEntry(p, RBRACKET); at !== -1; at = this.nextEntry(end, RBRACKET)) {
      list.push(this.flowValue(at, end));
    }
    this.flowDepth--;
    return list;
  }

  flowMap(p: number, end: number): Record<string, unknown> {
    const t = this.text;
    const map: Record<string, unknown> = {};
    this.enterFlow();
    for (let at = this.firstEntry(p, RBRACE); at !== -1; at = this.nextEntry(end, RBRACE)) {
      const colon = this.keyEnd(at, end);
      if (colon === -1 || t.charCodeAt(colon + 1) !== SPACE) decline();
      const key = this.keyAt(at, colon);
      if (colon - at > MAX_KEY || !isStringKey(key) || Object.hasOwn(map, key)) decline();
      let v = colon + 2;
      while (t.charCodeAt(v) === SPACE) v++;
      if (v >= end) decline();
      map[key] = this.flowValue(v, end);
    }
    this.flowDepth--;
    return map;
  }

  /** The pre-scan counts each `[` and `{` outside quotes: none is in a plain scalar here. */
  protected enterFlow(): void {
    if (++this.flowDepth > this.maxDepth) decline();
  }
}
