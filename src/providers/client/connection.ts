import { readFile as fsReadFile } from 'node:fs/promises';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { parse } from 'yaml';
import { DIALECT_NAMES, type DialectName, isDialectName } from '../../core/dialect.js';
import { PlatctlError } from '../../core/errors.js';
import type { ApiClient } from '../../model/api.js';
import type { SecretSource } from '../../model/manifest.js';
import { resolveSecret } from '../secrets.js';
import { pathTable } from './paths.js';

/** Where platctl connects, and with which key. */
export interface Connection {
  readonly baseUrl: string;
  readonly apiKey: string;
  /** Group overrides from the profile; flags override these in turn. */
  readonly groups: Partial<ApiClient['groups']>;
  /** The profile's replacements for the table of paths the spec does not show (checked). */
  readonly paths: Readonly<Record<string, string>>;
  /** The platform's dialect: `--dialect`, then `PLATCTL_DIALECT`, then the profile's, else `spec`. */
  readonly dialect: DialectName;
  /** Where the base URL and key came from, for `--verbose` output (never the key). */
  readonly source: string;
  /** Things worth telling the user (a plain key in the config file). */
  readonly warnings: readonly string[];
  /**
   * The files that hold (or may hold) the key: `--api-key-file`, the profile's `apiKeyFrom.file`
   * and the config file itself. A manifest's `passwordFrom.file` may not read them.
   */
  readonly credentialFiles: readonly string[];
}

export interface ConnectionInput {
  /** `--base-url`, `--api-key`, `--profile`, `--config`. */
  readonly flags?: {
    readonly baseUrl?: string;
    readonly apiKey?: string;
    /** `--api-key-file`: a file holding the key (one trailing newline ignored). */
    readonly apiKeyFile?: string;
    readonly profile?: string;
    readonly config?: string;
    readonly dialect?: string;
  };
  /** @default process.env */
  readonly env?: Readonly<Record<string, string | undefined>>;
  /** Reads a file as UTF-8. @default fs.promises.readFile */
  readonly readFile?: (path: string) => Promise<string>;
  /** @default os.homedir() */
  readonly home?: string;
}

interface Profile {
  baseUrl?: string;
  apiKeyFrom?: SecretSource;
  apiKey?: string;
  groups?: Partial<ApiClient['groups']>;
  paths?: Record<string, string>;
  dialect?: string;
}

/**
 * Resolves the connection (I/O: reads the config file and key files). Precedence, per value:
 * flags (`--api-key`, then `--api-key-file`), then `PLATCTL_BASE_URL` / `PLATCTL_API_KEY`, then the profile (`--profile`,
 * `PLATCTL_PROFILE`, else `default`) of the config file (`--config`, `PLATCTL_CONFIG`, else
 * `$XDG_CONFIG_HOME/platctl/config.yaml` or `~/.config/platctl/config.yaml`). A profile gives the
 * key as `apiKeyFrom: {env}` or `{file}`; a plain `apiKey` is accepted with a warning.
 */
export async function resolveConnection(input: ConnectionInput = {}): Promise<Connection> {
  const env = input.env ?? process.env;
  const flags = input.flags ?? {};
  const read = input.readFile ?? ((p: string) => fsReadFile(p, 'utf8'));
  const explicitConfig = flags.config ?? env.PLATCTL_CONFIG;
  const configPath =
    explicitConfig ??
    join(env.XDG_CONFIG_HOME ?? join(input.home ?? homedir(), '.config'), 'platctl', 'config.yaml');
  const profileName = flags.profile ?? env.PLATCTL_PROFILE;
  const warnings: string[] = [];

  const needProfile =
    profileName !== undefined ||
    (flags.baseUrl ?? env.PLATCTL_BASE_URL) === undefined ||
    (flags.apiKey ?? flags.apiKeyFile ?? env.PLATCTL_API_KEY) === undefined;
  const profile = needProfile
    ? await loadProfile(
        configPath,
        profileName,
        explicitConfig !== undefined || profileName !== undefined,
        read,
      )
    : undefined;

  const baseUrl = flags.baseUrl ?? env.PLATCTL_BASE_URL ?? profile?.baseUrl;
  const home = input.home ? { home: input.home } : {};
  let apiKey =
    flags.apiKey ??
    (flags.apiKeyFile !== undefined
      ? await resolveSecret({ file: flags.apiKeyFile }, { readFile: read, ...home })
      : env.PLATCTL_API_KEY);
  let keySource = flags.apiKey
    ? '--api-key'
    : flags.apiKeyFile
      ? '--api-key-file'
      : env.PLATCTL_API_KEY
        ? 'PLATCTL_API_KEY'
        : undefined;
  if (apiKey === undefined && profile?.apiKeyFrom) {
    apiKey = await resolveSecret(profile.apiKeyFrom, { env, readFile: read, ...home }).catch(
      (err) => {
        throw new PlatctlError('config', `profile ${profile.name}: ${(err as Error).message}`);
      },
    );
    keySource = `profile ${profile.name}`;
  } else if (apiKey === undefined && profile?.apiKey) {
    apiKey = profile.apiKey;
    keySource = `profile ${profile.name}`;
    warnings.push(
      `profile ${profile.name} in ${configPath} holds a plain apiKey; prefer apiKeyFrom: {env: ...} or {file: ...}`,
    );
  }
  if (!baseUrl) {
    throw new PlatctlError(
      'config',
      'no platform address: pass --base-url, set PLATCTL_BASE_URL, or add a profile with baseUrl to the config file',
    );
  }
  if (!apiKey) {
    throw new PlatctlError(
      'config',
      'no API key: set PLATCTL_API_KEY, pass --api-key-file PATH, or give the profile apiKeyFrom',
    );
  }
  return {
    baseUrl,
    apiKey,
    dialect: dialectOf(flags.dialect, env.PLATCTL_DIALECT, profile),
    groups: profile?.groups ?? {},
    paths: profile?.paths ?? {},
    credentialFiles: [
      configPath,
      ...(flags.apiKeyFile !== undefined ? [flags.apiKeyFile] : []),
      ...(profile?.apiKeyFrom && 'file' in profile.apiKeyFrom ? [profile.apiKeyFrom.file] : []),
    ],
    source: `${flags.baseUrl ? '--base-url' : env.PLATCTL_BASE_URL ? 'PLATCTL_BASE_URL' : `profile ${profile?.name}`}, key from ${keySource}`,
    warnings,
  };
}

async function loadProfile(
  path: string,
  name: string | undefined,
  required: boolean,
  read: (p: string) => Promise<string>,
): Promise<(Profile & { name: string }) | undefined> {
  let text: string;
  try {
    text = await read(path);
  } catch (err) {
    if (!required && (err as { code?: unknown }).code === 'ENOENT') return undefined;
    throw new PlatctlError('config', `cannot read config file ${path}`, { cause: err });
  }
  let doc: unknown;
  try {
    doc = parse(text);
  } catch (err) {
    // The parser's own message quotes the source, which may hold a key: keep only the position.
    const pos = (err as { linePos?: { line: number; col: number }[] }).linePos?.[0];
    const at = pos ? ` at line ${pos.line}, column ${pos.col}` : '';
    throw new PlatctlError('config', `config file ${path} is not valid YAML${at}`);
  }
  const profiles = (doc as { profiles?: Record<string, Profile> } | null)?.profiles ?? {};
  const chosen = name ?? 'default';
  const profile = profiles[chosen];
  if (!profile || typeof profile !== 'object') {
    if (name === undefined && !required) return undefined;
    const known = Object.keys(profiles).join(', ') || 'none';
    throw new PlatctlError('config', `no profile ${chosen} in ${path} (profiles: ${known})`);
  }
  const from = profile.apiKeyFrom as Record<string, unknown> | undefined;
  if (from && typeof from.env !== 'string' && typeof from.file !== 'string') {
    throw new PlatctlError('config', `profile ${chosen}: apiKeyFrom needs env or file`);
  }
  if (profile.paths !== undefined) {
    try {
      pathTable(profile.paths); // a bad entry fails here, naming the profile, not at first use
    } catch (err) {
      throw new PlatctlError('config', `profile ${chosen} in ${path}: ${(err as Error).message}`);
    }
  }
  return { ...profile, name: chosen };
}

/** The dialect named by the flag, else the environment, else the profile; `spec` by default. */
function dialectOf(
  flag: string | undefined,
  fromEnv: string | undefined,
  profile: (Profile & { name: string }) | undefined,
): DialectName {
  const [value, where] =
    flag !== undefined
      ? [flag, '--dialect']
      : fromEnv !== undefined && fromEnv !== ''
        ? [fromEnv, 'PLATCTL_DIALECT']
        : [profile?.dialect, `profile ${profile?.name}: dialect`];
  if (value === undefined) return 'spec';
  if (isDialectName(value)) return value;
  throw new PlatctlError(
    'config',
    `${where}: unknown dialect ${JSON.stringify(value)} (known: ${DIALECT_NAMES.join(', ')})`,
  );
}
