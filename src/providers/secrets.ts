import { readFile as fsReadFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { isCredentialVariable } from '../core/credentials.js';
import { PlatctlError } from '../core/errors.js';
import type { SecretSource } from '../model/manifest.js';
import { readSecretFile, type SecretFileRules } from './secret-files.js';

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
 * dropped (editors add it). This is the reader of platctl's own key (`--api-key-file`, a
 * profile's `apiKeyFrom`); a manifest's references go through {@link manifestSecrets}.
 */
export async function resolveSecret(
  source: SecretSource,
  environment: SecretEnvironment = {},
): Promise<string> {
  if ('env' in source) return fromEnv(source.env, environment.env ?? process.env);
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

/** What a manifest's `passwordFrom` may not read, beyond the fixed rules. */
export interface ManifestSecretRules extends SecretFileRules {
  /** The variables `passwordFrom.env` reads. @default process.env */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /**
   * platctl's own credential values (the API key, the controller's secrets): a password holding
   * one is refused, whatever variable or file it came from. Read when asked, so a rotated
   * credential counts.
   */
  readonly refusedValues?: () => readonly (string | undefined)[];
}

/**
 * The resolver of manifests' `passwordFrom` references (I/O when called), the same for `plan`,
 * `apply` and the controller: `env` refuses platctl's own credential variables, `file` reads
 * through {@link readSecretFile} (no credential file, no `/proc`, `/dev` or `/sys`, regular
 * files only, capped), and either is refused when the value holds one of `refusedValues`.
 */
export function manifestSecrets(
  rules: ManifestSecretRules = {},
): (source: SecretSource) => Promise<string> {
  return async (source) => {
    const value =
      'env' in source
        ? fromEnv(source.env, rules.env ?? process.env)
        : await readSecretFile(source.file, rules);
    const known = (rules.refusedValues?.() ?? []).filter((s): s is string => (s?.length ?? 0) >= 4);
    if (known.some((s) => value.includes(s))) {
      const named =
        'env' in source ? `passwordFrom.env ${source.env}` : `passwordFrom.file ${source.file}`;
      throw new PlatctlError('config', `${named} holds one of platctl's own credentials; refused`);
    }
    return value;
  };
}

function fromEnv(name: string, env: Readonly<Record<string, string | undefined>>): string {
  if (isCredentialVariable(name)) {
    throw new PlatctlError(
      'config',
      `passwordFrom.env names ${name}, one of platctl's own credentials; refused`,
    );
  }
  const value = env[name];
  if (value === undefined || value === '') {
    throw new PlatctlError('config', `environment variable ${name} is not set or empty`);
  }
  return value;
}
