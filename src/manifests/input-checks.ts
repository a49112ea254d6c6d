import { isUtf8 } from 'node:buffer';
import type { Diagnostic } from './diagnostics.js';
import type { SourceText } from './source-text.js';

/** Bounds on what one load may hold, so a committer cannot run the loader out of memory. */
export interface DocumentLimits {
  /** Most documents in one file. @default 20000 */
  readonly maxDocumentsPerFile: number;
  /** Most documents in all files together. @default 200000 */
  readonly maxDocuments: number;
  /** Largest single document, in characters. @default 1 MiB */
  readonly maxDocumentChars: number;
  /** Diagnostics kept; the rest are counted in one last diagnostic. @default 1000 */
  readonly maxDiagnostics: number;
}

export const DEFAULT_DOCUMENT_LIMITS: DocumentLimits = {
  maxDocumentsPerFile: 20_000,
  maxDocuments: 200_000,
  maxDocumentChars: 1024 * 1024,
  maxDiagnostics: 1000,
};

/**
 * Rejects a file whose bytes are not UTF-8, or that holds a NUL byte (pure): an error at the
 * first bad byte's line and column, since decoding would silently change the text. Returns the
 * text when it is clean.
 */
export function decodeManifest(
  file: string,
  bytes: Uint8Array,
): { text: string } | { diagnostic: Diagnostic } {
  // Node's native check first: the byte walk below was a pass over every byte in JavaScript, and
  // it is needed only to say where a file goes wrong
  const bad = isUtf8(bytes) ? undefined : firstInvalidUtf8(bytes);
  const text = Buffer.from(bytes.buffer, bytes.byteOffset, bad ?? bytes.length).toString('utf8');
  if (bad !== undefined) {
    return { diagnostic: encodingError(file, text, 'is not valid UTF-8 (save the file as UTF-8)') };
  }
  const nul = text.indexOf('\0');
  if (nul >= 0) return { diagnostic: encodingError(file, text.slice(0, nul), 'holds a NUL byte') };
  return { text };
}

/**
 * Stdin as `<stdin>` (pure): bytes get the very check a file gets ({@link decodeManifest}); text
 * the caller already decoded can only still be refused for a NUL byte.
 */
export function decodeStdin(
  input: string | Uint8Array,
): { text: string } | { diagnostic: Diagnostic } {
  if (typeof input !== 'string') return decodeManifest('<stdin>', input);
  const nul = input.indexOf('\0');
  if (nul < 0) return { text: input };
  return { diagnostic: encodingError('<stdin>', input.slice(0, nul), 'holds a NUL byte') };
}

function encodingError(file: string, before: string, what: string): Diagnostic {
  const lines = before.split(/\r\n|\r|\n/);
  return {
    severity: 'error',
    code: 'invalid-encoding',
    message: `the file ${what} here; it was not read`,
    file,
    line: lines.length,
    col: lines.at(-1)!.length + 1,
  };
}

/** The offset of the first byte that does not start or continue a valid UTF-8 sequence. */
function firstInvalidUtf8(b: Uint8Array): number | undefined {
  for (let i = 0; i < b.length; ) {
    const c = b[i]!;
    if (c < 0x80) {
      i++;
      continue;
    }
    const n =
      c >= 0xc2 && c <= 0xdf ? 1 : c >= 0xe0 && c <= 0xef ? 2 : c >= 0xf0 && c <= 0xf4 ? 3 : -1;
    if (n < 0 || i + n >= b.length) return i;
    for (let k = 1; k <= n; k++) if (((b[i + k] ?? 0) & 0xc0) !== 0x80) return i;
    const second = b[i + 1]!;
    // overlong forms, UTF-16 surrogates and code points past U+10FFFF
    if ((c === 0xe0 && second < 0xa0) || (c === 0xed && second > 0x9f)) return i;
    if ((c === 0xf0 && second < 0x90) || (c === 0xf4 && second > 0x8f)) return i;
    i += n + 1;
  }
  return undefined;
}

/**
 * Leaves out files with too many documents, or a document too large, and every file past the
 * total (pure): one error naming each file. Counting is by `---` lines, before any parsing.
 */
export function boundDocuments(
  sources: readonly SourceText[],
  limits: DocumentLimits,
): { sources: SourceText[]; diagnostics: Diagnostic[] } {
  const bound = new DocumentBound(limits);
  const kept: SourceText[] = [];
  for (const src of sources) {
    const admitted = bound.admit(src);
    if (admitted === 'past-total') break;
    if (admitted) kept.push(src);
  }
  return { sources: kept, diagnostics: bound.diagnostics };
}

/**
 * {@link boundDocuments} one source at a time, for a loader that parses each file as it is read:
 * `admit` says whether a source is kept, or `past-total` for the first one over the total (it and
 * every later one are left out). The errors collect in `diagnostics`.
 */
export class DocumentBound {
  readonly diagnostics: Diagnostic[] = [];
  readonly #limits: DocumentLimits;
  #total = 0;
  #past = false;

  constructor(limits: DocumentLimits) {
    this.#limits = limits;
  }

  admit(src: SourceText): boolean | 'past-total' {
    if (this.#past) return 'past-total';
    const limits = this.#limits;
    const starts = separators(src.text);
    const count = starts.length + 1;
    if (count > limits.maxDocumentsPerFile) {
      this.#refuse(
        src.file,
        `holds ${count} documents, over the limit of ${limits.maxDocumentsPerFile} per file; not read`,
      );
      return false;
    }
    const largest = largestGap([0, ...starts, src.text.length]);
    if (largest > limits.maxDocumentChars) {
      this.#refuse(
        src.file,
        `holds a document of ${largest} characters, over the limit of ${limits.maxDocumentChars}; not read`,
      );
      return false;
    }
    if (this.#total + count > limits.maxDocuments) {
      this.#refuse(
        src.file,
        `more than ${limits.maxDocuments} documents in all files; this file and the rest were not read`,
      );
      this.#past = true;
      return 'past-total';
    }
    this.#total += count;
    return true;
  }

  #refuse(file: string, message: string): void {
    this.diagnostics.push({ severity: 'error', code: 'too-many-documents', message, file });
  }
}

/**
 * Where each `---` at the start of a line is, as `/^---/gm` finds them (after `\n`, `\r`, U+2028
 * or U+2029), without a match object per document (100,000 of them for a large set). Pure.
 */
export function separators(text: string): number[] {
  const out: number[] = [];
  for (let i = text.indexOf('---'); i !== -1; i = text.indexOf('---', i + 1)) {
    const before = i === 0 ? 10 : text.charCodeAt(i - 1);
    if (before === 10 || before === 13 || before === 0x2028 || before === 0x2029) {
      out.push(i);
      i += 2; // past it: a `---` overlapping it is after a `-`, not at a line start
    }
  }
  return out;
}

function largestGap(points: readonly number[]): number {
  let max = 0;
  for (let i = 1; i < points.length; i++) max = Math.max(max, points[i]! - points[i - 1]!);
  return max;
}

/** The first `max` diagnostics, and one more counting the rest (pure). */
export function capDiagnostics(diagnostics: readonly Diagnostic[], max: number): Diagnostic[] {
  if (diagnostics.length <= max) return [...diagnostics];
  const rest = diagnostics.slice(max);
  return [
    ...diagnostics.slice(0, max),
    {
      severity: rest.some((d) => d.severity === 'error') ? 'error' : 'warning',
      code: 'too-many-diagnostics',
      message: `${rest.length} more diagnostics not shown (the first ${max} are above)`,
    },
  ];
}
