import { readFile, stat } from 'node:fs/promises';
import { PlatctlError } from '../../core/errors.js';

/** A secret's current value, looked up on every use (I/O when it comes from a file). */
export type SecretValue = () => Promise<string>;

/** The file system calls a {@link SecretFile} makes; the real ones unless a test swaps them. */
export interface SecretFileSystem {
  stat(path: string): Promise<{ ino: number; size: number; mtimeMs: number; ctimeMs: number }>;
  readFile(path: string): Promise<string>;
}

const nodeFs: SecretFileSystem = { stat, readFile: (p) => readFile(p, 'utf8') };

/** What happened to a secret file, for the log (never its content). */
export type SecretFileEvent =
  | { readonly type: 'reloaded'; readonly what: string }
  | { readonly type: 'unusable'; readonly what: string; readonly reason: string };

/**
 * A credential kept in a mounted file and re-read when the file changes, so rotating it needs no
 * restart. Every use `stat`s the path (following symlinks, as a Kubernetes Secret volume's
 * `..data` swap needs) and re-reads only when inode, size or times differ: a stat costs
 * microseconds next to the request it authenticates, and unlike a watcher it cannot miss an
 * atomic swap or deliver the change after the request that needed it. A file that turns empty,
 * unreadable or missing after a good read keeps the last value (a half-written update must not
 * lock the controller out) and is reported once.
 */
export class SecretFile {
  readonly #path: string;
  readonly #what: string;
  readonly #fs: SecretFileSystem;
  readonly #onEvent: (e: SecretFileEvent) => void;
  #value: string | undefined;
  #signature: string | undefined;
  #reported: string | undefined;

  constructor(
    path: string,
    what: string,
    options: { fs?: SecretFileSystem; onEvent?: (e: SecretFileEvent) => void } = {},
  ) {
    this.#path = path;
    this.#what = what;
    this.#fs = options.fs ?? nodeFs;
    this.#onEvent = options.onEvent ?? (() => {});
  }

  /** The first read: throws a `config` error naming the file (not its content) when unusable. */
  async load(): Promise<string> {
    const value = await this.#read();
    if (value.ok) return value.value;
    throw new PlatctlError('config', `${this.#what} file ${this.#path} ${value.reason}`);
  }

  /** The current value: re-read when the file changed, else the one read before. */
  readonly value: SecretValue = async () => {
    const r = await this.#read();
    if (r.ok) return r.value;
    if (this.#value === undefined) {
      throw new PlatctlError('config', `${this.#what} file ${this.#path} ${r.reason}`);
    }
    if (this.#reported !== r.reason) {
      this.#reported = r.reason;
      this.#onEvent({ type: 'unusable', what: this.#what, reason: r.reason });
    }
    return this.#value;
  };

  async #read(): Promise<{ ok: true; value: string } | { ok: false; reason: string }> {
    let signature: string;
    try {
      const s = await this.#fs.stat(this.#path);
      signature = `${s.ino}:${s.size}:${s.mtimeMs}:${s.ctimeMs}`;
    } catch {
      return { ok: false, reason: 'is missing or unreadable' };
    }
    if (signature === this.#signature && this.#value !== undefined) {
      return { ok: true, value: this.#value };
    }
    let text: string;
    try {
      text = (await this.#fs.readFile(this.#path)).trim();
    } catch {
      return { ok: false, reason: 'is missing or unreadable' };
    }
    if (text === '') return { ok: false, reason: 'is empty' };
    const changed = this.#value !== undefined && text !== this.#value;
    this.#value = text;
    this.#signature = signature;
    this.#reported = undefined;
    if (changed) this.#onEvent({ type: 'reloaded', what: this.#what });
    return { ok: true, value: text };
  }
}

/** A value that never changes (an environment variable, a test's literal) as a {@link SecretValue}. */
export function fixedSecret(value: string): SecretValue {
  return async () => value;
}
