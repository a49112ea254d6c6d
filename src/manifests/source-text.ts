/**
 * One manifest file's text and the name diagnostics use for it: what the reader (files.ts)
 * produces and the input checks, the parser and the position finder take.
 */
export interface SourceText {
  file: string;
  text: string;
}
