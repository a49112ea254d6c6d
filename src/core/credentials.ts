/**
 * The environment variables that hold platctl's own credentials: the platform key, the emulator's
 * key, git credentials, the webhook secret, the control API token and the state store's URL.
 * Manifests may never read them: not through `${VAR}`, not through `passwordFrom.env`.
 */
const CREDENTIAL_VARIABLES: readonly string[] = [
  'PLATCTL_API_KEY',
  'PLATCTL_EMULATOR_API_KEY',
  'PLATCTL_GIT_TOKEN',
  'PLATCTL_GIT_USERNAME',
  'PLATCTL_WEBHOOK_SECRET',
  'PLATCTL_CONTROL_TOKEN',
  'PLATCTL_STATE_URL',
  'PLATCTL_TEST_DATABASE_URL',
  'DATABASE_URL',
  'PGPASSWORD',
];

/** True for a variable in {@link CREDENTIAL_VARIABLES} (names are case-sensitive). Pure. */
export function isCredentialVariable(name: string): boolean {
  return CREDENTIAL_VARIABLES.includes(name);
}

/** The variables that name a file holding platctl's own credentials (or PostgreSQL's). */
const CREDENTIAL_FILE_VARIABLES: readonly string[] = [
  'PLATCTL_STATE_URL_FILE',
  'PLATCTL_CONFIG',
  'PGPASSFILE',
];

/**
 * The credential files `env` names ({@link CREDENTIAL_FILE_VARIABLES}), as written (pure): what a
 * manifest's `passwordFrom.file` may never read, beside the files the command line names.
 */
export function credentialFilesIn(env: Readonly<Record<string, string | undefined>>): string[] {
  return CREDENTIAL_FILE_VARIABLES.flatMap((name) => (env[name] ? [env[name]] : []));
}

/** Kernel and device trees: never a password, often a credential (`/proc/self/environ`). */
const SYSTEM_TREES: readonly string[] = ['/proc', '/dev', '/sys'];

/**
 * The kernel or device tree (`/proc`, `/dev`, `/sys`) an absolute path lies in, else undefined
 * (pure; the caller resolves symlinks first when it can).
 */
export function systemTreeOf(path: string): string | undefined {
  return SYSTEM_TREES.find((t) => path === t || path.startsWith(`${t}/`));
}

/** Names that say they hold a secret: `..._TOKEN`, `..._SECRET`, `..._PASSWORD`, `..._API_KEY`. */
const SECRET_NAME = /(^|_)(API_?KEY|API_?KEYID|TOKEN|SECRET|PASSWORD|PASSWD|CREDENTIALS?)$/i;

/**
 * Why `${name}` may not be substituted into a manifest, or undefined when it may (pure): a
 * platform credential, or any name that says it holds a secret. Substituted text ends up in
 * plans, the state store and request bodies; secrets go through `passwordFrom` instead.
 */
export function refusedVariable(name: string): string | undefined {
  if (isCredentialVariable(name)) {
    return `\${${name}} is one of platctl's own credentials; a manifest may never read it`;
  }
  if (SECRET_NAME.test(name)) {
    return `\${${name}} names a secret; substituted text is shown in plans and kept in the state store, so pass secrets with passwordFrom: {env: ...} or {file: ...} instead`;
  }
  return undefined;
}
