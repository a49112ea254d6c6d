import { readFile as fsReadFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { isCredentialVariable } from '../core/credentials.js';
import { PlatctlError } from '../core/errors.js';
import type { SecretSource } from '../model/manifest.js';

export interface SecretEnvironment {
  /** @default process.env */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** @default fs.promises.readFile as UTF-8 */
  readonly readFile?: (path: string) => Promise<string>;
  /** Where `~/` in a file path points. @default os.homedir() */
  readonly home?: string;
}

/**
 * Resolves a `passwordFrom`-style reference at execution time (I/O). A missing or empty variable
 * or an unreadable or empty file is a `config` error naming the variable or file, never a value.
 * A file path starting with `~/` is in the home directory. One trailing newline of a file is
 * dropped (editors add it).
 */
export async function resolveSecret(
  source: SecretSource,
  environment: SecretEnvironment = {},
): Promise<string> {
  if ('env' in source) {
    if (isCredentialVariable(source.env)) {
      throw new PlatctlError(
        'config',
        `passwordFrom.env names ${source.env}, one of platctl's own credentials; refused`,
      );
    }
    const value = (environment.env ?? process.env)[source.env];
    if (value === undefined || value === '') {
      throw new PlatctlError('config', `environment variable ${source.env} is not set or empty`);
    }
    return value;
  }
  const read = environment.readFile ?? ((p: string) => fsReadFile(p, 'utf8'));
  let text: string;
  try {
    const path = source.file.startsWith('~/')
      ? join(environment.home ?? homedir(), source.file.slice(2))
      : source.file;
    text = await read(path);
  } catch (err) {
    const code = (err as { code?: unknown }).code;
    throw new PlatctlError(
      'config',
      `cannot read secret file ${source.file}${typeof code === 'string' ? ` (${code})` : ''}`,
    );
  }
  const value = text.replace(/\r?\n$/, '');
  if (value === '') throw new PlatctlError('config', `secret file ${source.file} is empty`);
  return value;
}
