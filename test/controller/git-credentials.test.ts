import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveGitAuth } from '../../src/controller/sources/git-credentials.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'platctl-cred-'));
});
afterAll(async () => {
  await rm(dir, { recursive: true, force: true });
});

describe('resolveGitAuth', () => {
  it('passes a token as an extra header through GIT_CONFIG_* env, never as an argument', async () => {
    const a = await resolveGitAuth({ token: 'ghp_tokenvalue123' });
    expect(a.kind).toBe('token');
    expect(a.env.GIT_CONFIG_KEY_0).toBe('http.extraHeader');
    const basic = Buffer.from('x-access-token:ghp_tokenvalue123').toString('base64');
    expect(a.env.GIT_CONFIG_VALUE_0).toBe(`Authorization: Basic ${basic}`);
    expect(a.secrets).toContain('ghp_tokenvalue123');
    expect(a.secrets).toContain(basic);
    expect(a.env.GIT_TERMINAL_PROMPT).toBe('0');
  });

  it('reads a token file, and uses an SSH key file through GIT_SSH_COMMAND', async () => {
    const tokenFile = join(dir, 'token');
    await writeFile(tokenFile, 'filetoken-abc\n');
    expect((await resolveGitAuth({ credentialsFile: tokenFile })).secrets).toContain(
      'filetoken-abc',
    );
    const keyFile = join(dir, 'id_ed25519');
    await writeFile(
      keyFile,
      '-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n-----END OPENSSH PRIVATE KEY-----\n',
    );
    const ssh = await resolveGitAuth({ credentialsFile: keyFile });
    expect(ssh.kind).toBe('ssh-key');
    expect(ssh.env.GIT_SSH_COMMAND).toContain(`-i '${keyFile}'`);
    expect(JSON.stringify(ssh)).not.toContain('AAAA');
  });

  it('does not forward unrelated environment (like the platform API key) to git', async () => {
    process.env.PLATCTL_API_KEY = 'apikey-should-not-leak';
    try {
      const a = await resolveGitAuth({});
      expect(a.kind).toBe('none');
      expect(JSON.stringify(a.env)).not.toContain('apikey-should-not-leak');
    } finally {
      delete process.env.PLATCTL_API_KEY;
    }
  });
});

describe('proxy settings', () => {
  it('passes HTTPS_PROXY, HTTP_PROXY and NO_PROXY (either case) to git', async () => {
    const saved = { ...process.env };
    Object.assign(process.env, {
      HTTPS_PROXY: 'http://proxy.internal:3128',
      no_proxy: 'localhost,.svc',
    });
    try {
      const a = await resolveGitAuth({});
      expect(a.env.HTTPS_PROXY).toBe('http://proxy.internal:3128');
      expect(a.env.no_proxy).toBe('localhost,.svc');
    } finally {
      delete process.env.HTTPS_PROXY;
      delete process.env.no_proxy;
      Object.assign(process.env, saved);
    }
  });
});

describe('--known-hosts', () => {
  const KEY = '-----BEGIN OPENSSH PRIVATE KEY-----\nAAAA\n-----END OPENSSH PRIVATE KEY-----\n';
  it('pins host keys: the pinned file only, strict checking, no trust on first use', async () => {
    const keyFile = join(dir, 'id_pinned');
    const knownHosts = join(dir, "known hosts's");
    await writeFile(keyFile, KEY);
    await writeFile(knownHosts, 'git.example.com ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIexample\n');
    const ssh = await resolveGitAuth({ credentialsFile: keyFile, knownHostsFile: knownHosts });
    expect(ssh.env.GIT_SSH_COMMAND).toBe(
      [
        'ssh',
        `-i '${keyFile}'`,
        '-o IdentitiesOnly=yes',
        `-o 'UserKnownHostsFile=${knownHosts.replace("'", `'\\''`)}'`,
        '-o GlobalKnownHostsFile=/dev/null',
        '-o StrictHostKeyChecking=yes',
        '-o BatchMode=yes',
      ].join(' '),
    );
    // a token over HTTPS has no host key to pin, but an ssh:// URL without a key file (an agent,
    // a key in ~/.ssh) still gets the pinned file
    const none = await resolveGitAuth({ knownHostsFile: knownHosts });
    expect(none.env.GIT_SSH_COMMAND).toContain('-o StrictHostKeyChecking=yes');
  });

  it('without it keeps trust on first use (documented risk)', async () => {
    const keyFile = join(dir, 'id_tofu');
    await writeFile(keyFile, KEY);
    const ssh = await resolveGitAuth({ credentialsFile: keyFile });
    expect(ssh.env.GIT_SSH_COMMAND).toContain('-o StrictHostKeyChecking=accept-new');
    expect(ssh.env.GIT_SSH_COMMAND).not.toContain('UserKnownHostsFile');
  });

  it('refuses a missing, unreadable or empty file with an error naming it', async () => {
    const missing = join(dir, 'nope');
    await expect(resolveGitAuth({ knownHostsFile: missing })).rejects.toThrow(
      `--known-hosts ${missing}: missing or unreadable`,
    );
    const empty = join(dir, 'empty-known-hosts');
    await writeFile(empty, '# no keys yet\n\n');
    await expect(resolveGitAuth({ knownHostsFile: empty })).rejects.toThrow(
      `--known-hosts ${empty}: holds no host key`,
    );
  });
});

describe('a git host that redirects', () => {
  it('never sends the token to another host: the redirect is not followed', async () => {
    const { createServer } = await import('node:http');
    const { GitSource } = await import('../../src/controller/sources/git-source.js');
    const listen = (handler: Parameters<typeof createServer>[1]) =>
      new Promise<{ port: number; close(): void }>((resolve) => {
        const server = createServer(handler);
        server.listen(0, '127.0.0.1', () => {
          const { port } = server.address() as { port: number };
          resolve({ port, close: () => server.close() });
        });
      });
    const seen: { host?: string; authorization?: string }[] = [];
    // the other host answers like a git server with one branch: git goes on with it
    const pkt = (line: string) => `${(line.length + 4).toString(16).padStart(4, '0')}${line}`;
    const advertisement = [
      pkt('# service=git-upload-pack\n'),
      '0000',
      pkt(`${'a'.repeat(40)} refs/heads/main\0multi_ack_detailed side-band-64k ofs-delta\n`),
      '0000',
    ].join('');
    const other = await listen((req, res) => {
      seen.push({ host: req.headers.host, authorization: req.headers.authorization });
      if (req.url?.includes('/info/refs')) {
        res.writeHead(200, {
          'content-type': 'application/x-git-upload-pack-advertisement',
          'cache-control': 'no-cache',
        });
        res.end(advertisement);
        return;
      }
      res.writeHead(500);
      res.end();
    });
    const atOrigin: (string | undefined)[] = [];
    const origin = await listen((req, res) => {
      atOrigin.push(req.headers.authorization);
      res.writeHead(301, { location: `http://localhost:${other.port}${req.url}` });
      res.end();
    });
    try {
      const repo = `http://127.0.0.1:${origin.port}/acme/platform.git`;
      const source = new GitSource({
        repo,
        branch: 'main',
        path: '.',
        cacheDir: join(dir, 'redirect-cache'),
        auth: () => resolveGitAuth({ repo, token: 'ghp_redirect_secret_42' }),
        timeoutMs: 20_000,
      });
      await expect(source.fetch(new AbortController().signal)).rejects.toThrow();
      expect(seen.filter((r) => r.authorization !== undefined)).toEqual([]);
      // the repository's own host does get it
      const basic = Buffer.from('x-access-token:ghp_redirect_secret_42').toString('base64');
      expect(atOrigin).toContain(`Basic ${basic}`);
    } finally {
      origin.close();
      other.close();
    }
  });
});
