import { readFile } from 'node:fs/promises';
import { PlatctlError } from '../../core/errors.js';

/** Where git credentials come from: never the command line. */
export interface GitCredentialInput {
  /** The repository the credentials are for: a token is sent to its host only. */
  readonly repo?: string;
  /** A token for HTTPS (from `PLATCTL_GIT_TOKEN`). */
  readonly token?: string;
  /** A mounted file holding either a token or an SSH private key (`--git-credentials-file`). */
  readonly credentialsFile?: string;
  /** The HTTPS user name sent with the token. @default 'x-access-token' */
  readonly username?: string;
  /**
   * `--known-hosts`: the SSH host keys to accept, and no others (no trust on first use).
   * Undefined: a host's key is accepted the first time it is seen (`accept-new`).
   */
  readonly knownHostsFile?: string;
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
 * ssh's command line: the key (when one is given), then host key checking. With a known-hosts
 * file only its keys are accepted (the global file is ignored too: pinned means pinned); without
 * one a host's key is trusted the first time it is seen, so a spoofed first connection wins.
 */
function sshCommand(keyFile: string | undefined, knownHostsFile: string | undefined): string {
  return [
    'ssh',
    ...(keyFile !== undefined ? [`-i ${quoteForShell(keyFile)}`, '-o IdentitiesOnly=yes'] : []),
    ...(knownHostsFile !== undefined
      ? [
          `-o ${quoteForShell(`UserKnownHostsFile=${knownHostsFile}`)}`,
          '-o GlobalKnownHostsFile=/dev/null',
          '-o StrictHostKeyChecking=yes',
        ]
      : ['-o StrictHostKeyChecking=accept-new']),
    '-o BatchMode=yes',
  ].join(' ');
}

/** Checks that a known-hosts file can be read and pins at least one key (I/O). */
async function checkKnownHosts(file: string): Promise<void> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch {
    throw new PlatctlError('config', `--known-hosts ${file}: missing or unreadable`);
  }
  const keys = text.split('\n').filter((l) => l.trim() !== '' && !l.trimStart().startsWith('#'));
  if (keys.length === 0) {
    throw new PlatctlError('config', `--known-hosts ${file}: holds no host key`);
  }
}

/**
 * The `http.<url>.` prefix of git's settings for `repo`'s scheme, host and port (git applies them
 * to that origin only); plain `http.` for a repository that is not an http(s) URL. Pure.
 */
function httpScope(repo: string | undefined): string {
  if (repo === undefined) return 'http.';
  try {
    const u = new URL(repo);
    if (u.protocol !== 'https:' && u.protocol !== 'http:') return 'http.';
    return `http.${u.protocol}//${u.host}/.`;
  } catch {
    return 'http.';
  }
}

/**
 * Builds git's environment from the credentials (reads the files; I/O). A token travels as an
 * `http.<origin>.extraHeader` set through `GIT_CONFIG_*` variables, so it is never on a command
 * line, in a URL, or in `.git/config`, and reaches only the repository's origin: redirects are
 * not followed (`http.followRedirects=false`), since git would send its extra header to the
 * redirect's host for every later request (a moved repository fails with its status; point
 * `--repo` at the new URL). An SSH key is used through `GIT_SSH_COMMAND -i <file>`, host keys as
 * {@link sshCommand} says. Called before each fetch, so a rotated file is used at once.
 */
export async function resolveGitAuth(input: GitCredentialInput): Promise<GitAuth> {
  const env: Record<string, string> = { GIT_TERMINAL_PROMPT: '0' };
  for (const name of PASS_THROUGH) {
    const v = process.env[name];
    if (v !== undefined) env[name] = v;
  }
  const knownHosts = input.knownHostsFile;
  if (knownHosts !== undefined) {
    await checkKnownHosts(knownHosts);
    env.GIT_SSH_COMMAND = sshCommand(undefined, knownHosts);
  }
  let token = input.token?.trim() || undefined;
  if (input.credentialsFile !== undefined) {
    const content = (await readFile(input.credentialsFile, 'utf8')).trim();
    if (/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(content)) {
      env.GIT_SSH_COMMAND = sshCommand(input.credentialsFile, knownHosts);
      return { env, secrets: [], kind: 'ssh-key' };
    }
    token = content || token;
  }
  if (token === undefined) return { env, secrets: [], kind: 'none' };
  const basic = Buffer.from(`${input.username ?? 'x-access-token'}:${token}`).toString('base64');
  env.GIT_CONFIG_COUNT = '2';
  env.GIT_CONFIG_KEY_0 = `${httpScope(input.repo)}extraHeader`;
  env.GIT_CONFIG_VALUE_0 = `Authorization: Basic ${basic}`;
  env.GIT_CONFIG_KEY_1 = 'http.followRedirects';
  env.GIT_CONFIG_VALUE_1 = 'false';
  return { env, secrets: [token, basic], kind: 'token' };
}
