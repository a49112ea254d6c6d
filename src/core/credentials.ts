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
