import { readFile } from 'node:fs/promises';

/** Where git credentials come from: never the command line. */
export interface GitCredentialInput {
  /** A token for HTTPS (from `PLATCTL_GIT_TOKEN`). */
  readonly token?: string;
  /** A mounted file holding either a token or an SSH private key (`--git-credentials-file`). */
  readonly credentialsFile?: string;
  /** The HTTPS user name sent with the token. @default 'x-access-token' */
  readonly username?: string;
}

/** Environment for git child processes, plus the literal secrets to scrub from any message. */
export interface GitAuth {
  readonly env: Readonly<Record<string, string>>;
  readonly secrets: readonly string[];
  readonly kind: 'none' | 'token' | 'ssh-key';
}

/** Variables copied from our environment into git's; nothing else leaks into the child. */
const PASS_THROUGH = [
  ...['PATH', 'HOME', 'TMPDIR', 'LANG', 'SSL_CERT_FILE', 'SSL_CERT_DIR'],
  // a cluster's egress proxy: git honours both spellings
  ...['HTTPS_PROXY', 'HTTP_PROXY', 'NO_PROXY', 'https_proxy', 'http_proxy', 'no_proxy'],
];

function quoteForShell(path: string): string {
  return `'${path.replace(/'/g, `'\\''`)}'`;
}

/**
 * Builds git's environment from the credentials (reads the file; I/O). A token travels as an
 * `http.extraHeader` set through `GIT_CONFIG_*` variables, so it is never on a command line, in a
 * URL, or in `.git/config`. An SSH key is used through `GIT_SSH_COMMAND -i <file>`.
 */
export async function resolveGitAuth(input: GitCredentialInput): Promise<GitAuth> {
  const env: Record<string, string> = { GIT_TERMINAL_PROMPT: '0' };
  for (const name of PASS_THROUGH) {
    const v = process.env[name];
    if (v !== undefined) env[name] = v;
  }
  let token = input.token?.trim() || undefined;
  if (input.credentialsFile !== undefined) {
    const content = (await readFile(input.credentialsFile, 'utf8')).trim();
    if (/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(content)) {
      env.GIT_SSH_COMMAND = [
        'ssh',
        `-i ${quoteForShell(input.credentialsFile)}`,
        '-o IdentitiesOnly=yes',
        '-o StrictHostKeyChecking=accept-new',
        '-o BatchMode=yes',
      ].join(' ');
      return { env, secrets: [], kind: 'ssh-key' };
    }
    token = content || token;
  }
  if (token === undefined) return { env, secrets: [], kind: 'none' };
  const basic = Buffer.from(`${input.username ?? 'x-access-token'}:${token}`).toString('base64');
  env.GIT_CONFIG_COUNT = '1';
  env.GIT_CONFIG_KEY_0 = 'http.extraHeader';
  env.GIT_CONFIG_VALUE_0 = `Authorization: Basic ${basic}`;
  return { env, secrets: [token, basic], kind: 'token' };
}
