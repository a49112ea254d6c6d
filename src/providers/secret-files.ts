import { constants } from 'node:fs';
import { type FileHandle, open, realpath, stat } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { systemTreeOf } from '../core/credentials.js';
import { PlatctlError } from '../core/errors.js';

/** Largest `passwordFrom.file` read, in bytes (docs/reliability.md): a password, not a data set. */
export const MAX_SECRET_FILE_BYTES = 64 * 1024;

/** What a manifest's secret file may not be, beyond the fixed rules. */
export interface SecretFileRules {
  /**
   * Files holding platctl's own credentials (the API key file, the controller's secret files,
   * the config file): refused by path, symlinks resolved on both sides.
   */
  readonly refusedFiles?: readonly string[];
  /** Where `~/` in a path points. @default os.homedir() */
  readonly home?: string;
  /** @default {@link MAX_SECRET_FILE_BYTES} */
  readonly maxBytes?: number;
}

/** The one read a capped read makes of an open file (a `FileHandle` has it). */
export interface ReadableHandle {
  read(
    buffer: Buffer,
    offset: number,
    length: number,
    position: number,
  ): Promise<{
    bytesRead: number;
  }>;
}

/**
 * Reads a manifest's `passwordFrom.file` (I/O), refusing what is not a password: a path that
 * resolves (symlinks followed) into `/proc`, `/dev` or `/sys`, one of `rules.refusedFiles`,
 * anything but a regular file, and a file over the cap. The file is opened without following a
 * link swapped in after the check, compared with what was checked, and read with one bounded read
 * of cap + 1 bytes, whatever it claims its size is. Errors are `config` errors naming the path as
 * written, never a byte of content. One trailing newline is dropped; an empty file is an error.
 */
export async function readSecretFile(path: string, rules: SecretFileRules = {}): Promise<string> {
  const cap = rules.maxBytes ?? MAX_SECRET_FILE_BYTES;
  const refuse = (why: string) =>
    new PlatctlError('config', `passwordFrom.file ${path} ${why}; refused`);
  const absolute = resolve(
    path.startsWith('~/') ? join(rules.home ?? homedir(), path.slice(2)) : path,
  );
  let real: string;
  try {
    real = await realpath(absolute);
  } catch (err) {
    throw unreadable(path, err);
  }
  if (systemTreeOf(real) !== undefined) {
    throw refuse(`resolves to ${real}, a kernel or device file, not a password`);
  }
  if ((await realPaths(rules.refusedFiles ?? [], rules.home)).has(real)) {
    throw refuse("is one of platctl's own credential files");
  }
  // stat before open: opening a FIFO for reading would wait for a writer
  const checked = await stat(real).catch((err: unknown) => {
    throw unreadable(path, err);
  });
  if (!checked.isFile()) throw refuse('is not a regular file');
  if (checked.size > cap) throw refuse(`is ${checked.size} bytes, over the limit of ${cap}`);
  let handle: FileHandle;
  try {
    handle = await open(real, constants.O_RDONLY | constants.O_NOFOLLOW | constants.O_NONBLOCK);
  } catch (err) {
    throw unreadable(path, err);
  }
  try {
    const opened = await handle.stat();
    if (!opened.isFile() || opened.ino !== checked.ino || opened.dev !== checked.dev) {
      throw refuse('changed while it was checked');
    }
    const bytes = await readCapped(handle, cap);
    if (bytes === undefined) throw refuse(`is over the limit of ${cap} bytes`);
    const value = bytes.toString('utf8').replace(/\r?\n$/, '');
    if (value === '') throw new PlatctlError('config', `secret file ${path} is empty`);
    return value;
  } finally {
    await handle.close();
  }
}

/**
 * Reads at most `cap` + 1 bytes from the start of `handle` into one buffer of that size (I/O):
 * the bytes when the file ends within `cap`, undefined when there is more. Memory stays at
 * `cap` + 1 bytes however large or endless the file is.
 */
export async function readCapped(handle: ReadableHandle, cap: number): Promise<Buffer | undefined> {
  const buffer = Buffer.alloc(cap + 1);
  let filled = 0;
  while (filled <= cap) {
    const { bytesRead } = await handle.read(buffer, filled, cap + 1 - filled, filled);
    if (bytesRead === 0) return buffer.subarray(0, filled);
    filled += bytesRead;
  }
  return undefined;
}

/** The real paths of the files that exist among `paths` (I/O); the rest cannot be read anyway. */
async function realPaths(paths: readonly string[], home?: string): Promise<Set<string>> {
  const out = await Promise.all(
    paths.map((p) =>
      realpath(resolve(p.startsWith('~/') ? join(home ?? homedir(), p.slice(2)) : p)).catch(
        () => undefined,
      ),
    ),
  );
  return new Set(out.filter((p): p is string => p !== undefined));
}

function unreadable(path: string, err: unknown): PlatctlError {
  const code = (err as { code?: unknown }).code;
  return new PlatctlError(
    'config',
    `cannot read secret file ${path}${typeof code === 'string' ? ` (${code})` : ''}`,
  );
}
