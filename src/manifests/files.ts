import { lstatSync, readdirSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import type { Diagnostic } from './diagnostics.js';
import { decodeManifest, decodeStdin } from './input-checks.js';
import type { SourceText } from './source-text.js';

/** Limits that protect the loader from hostile or mistaken input. */
export interface LoaderLimits {
  /** Largest manifest file (or stdin) read, in bytes. @default 4 MiB */
  maxFileBytes: number;
  /** Most YAML alias expansions per document (billion-laughs guard). @default 1000 */
  maxAliasCount: number;
  /** Deepest nesting of YAML collections accepted (stack-exhaustion guard). @default 64 */
  maxDepth: number;
  /** Most files read from all paths together. @default 20000 */
  maxFiles: number;
}

/** The defaults of {@link LoaderLimits}. */
export const DEFAULT_LIMITS: LoaderLimits = {
  maxFileBytes: 4 * 1024 * 1024,
  maxAliasCount: 1000,
  maxDepth: 64,
  maxFiles: 20_000,
};

const YAML_EXT = /\.ya?ml$/i;

/** Label for a path in diagnostics: forward slashes, as the user wrote the root. */
function label(root: string, abs: string, rootAbs: string): string {
  const rel = relative(rootAbs, abs);
  return (rel === '' ? root : join(root, rel)).split(sep).join('/');
}

/** Where a source read from disk can be read again: its path (undefined for stdin). */
export type SourceVisitor = (src: SourceText, path: string | undefined) => void;

/**
 * Reads every manifest source named by `paths`, handing each to `visit` as soon as it is read (so
 * a caller that is done with a file before the next need not hold them all): `-` is `stdin` (bytes checked as a file's are), a file is read whatever its
 * extension, a directory is walked recursively in sorted order for `.yaml`/`.yml` files (hidden
 * entries skipped). Symlinks leaving a walked directory, files over the size limit and unreadable
 * paths become diagnostics. Does file I/O, synchronously: the loader parses what it reads at once,
 * and on one core the thread-pool round trips of asynchronous reads cost three times the CPU of
 * the reads themselves. Never throws.
 */
export function readSources(
  paths: readonly string[],
  stdin: string | Uint8Array | undefined,
  limits: LoaderLimits,
  visit: SourceVisitor,
): Diagnostic[] {
  let read = 0;
  const diagnostics: Diagnostic[] = [];
  const err = (file: string, code: Diagnostic['code'], message: string) =>
    diagnostics.push({ severity: 'error', code, message, file });

  const readOne = (file: string, abs: string, size: number) => {
    if (read >= limits.maxFiles) {
      err(file, 'file-too-large', `more than ${limits.maxFiles} manifest files; not read`);
      return;
    }
    if (size > limits.maxFileBytes) {
      err(
        file,
        'file-too-large',
        `file is ${size} bytes, over the limit of ${limits.maxFileBytes}`,
      );
      return;
    }
    let decoded: ReturnType<typeof decodeManifest>;
    try {
      decoded = decodeManifest(file, readFileSync(abs));
    } catch (e) {
      err(file, 'file-read', `cannot read: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
      return;
    }
    if (!('text' in decoded)) diagnostics.push(decoded.diagnostic);
    else {
      read++;
      visit({ file, text: decoded.text }, abs); // outside the try: the visitor's errors are its own
    }
  };

  const walk = (root: string, rootReal: string, dirAbs: string, seen: Set<string>) => {
    let entries: string[];
    try {
      entries = readdirSync(dirAbs)
        .filter((n) => !n.startsWith('.'))
        .sort();
    } catch (e) {
      err(
        label(root, dirAbs, rootReal),
        'file-read',
        `cannot list: ${(e as NodeJS.ErrnoException).code}`,
      );
      return;
    }
    for (const name of entries) {
      const abs = join(dirAbs, name);
      const file = label(root, abs, rootReal);
      try {
        const l = lstatSync(abs);
        let target = abs;
        if (l.isSymbolicLink()) {
          target = realpathSync.native(abs);
          const rel = relative(rootReal, target);
          if (rel.startsWith('..') || rel.startsWith(sep) || rel === '' || /^[A-Za-z]:/.test(rel)) {
            const what = rel === '' ? `back to ${root} itself (a loop)` : `outside ${root}`;
            err(file, 'symlink-escape', `symlink points ${what}; refused`);
            continue;
          }
        }
        const s = statSync(target);
        if (s.isDirectory()) {
          const real = realpathSync.native(target);
          if (seen.has(real)) continue; // a symlink loop inside the root
          seen.add(real);
          walk(root, rootReal, abs, seen);
        } else if (s.isFile() && YAML_EXT.test(name)) {
          readOne(file, target, s.size);
        }
      } catch (e) {
        err(file, 'file-read', `cannot read: ${(e as NodeJS.ErrnoException).code ?? String(e)}`);
      }
    }
  };

  for (const p of paths) {
    if (p === '-') {
      const input = stdin ?? '';
      const size = typeof input === 'string' ? Buffer.byteLength(input) : input.byteLength;
      if (size > limits.maxFileBytes) {
        err('<stdin>', 'file-too-large', `stdin is over the limit of ${limits.maxFileBytes} bytes`);
        continue;
      }
      const decoded = decodeStdin(input);
      if (!('text' in decoded)) diagnostics.push(decoded.diagnostic);
      else {
        read++;
        visit({ file: '<stdin>', text: decoded.text }, undefined);
      }
      continue;
    }
    const file = p.split(sep).join('/');
    try {
      const s = statSync(p);
      if (s.isDirectory()) {
        const real = realpathSync.native(p);
        walk(p, real, real, new Set([real]));
      } else readOne(file, p, s.size);
    } catch (e) {
      const code = (e as NodeJS.ErrnoException).code;
      if (code === 'ENOENT') err(file, 'path-not-found', 'no such file or directory');
      else err(file, 'file-read', `cannot read: ${code ?? String(e)}`);
    }
  }
  return diagnostics;
}
