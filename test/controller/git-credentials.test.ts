import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveGitAuth } from '../../src/controller/git-credentials.js';

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
