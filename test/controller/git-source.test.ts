import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { resolveGitAuth } from '../../src/controller/sources/git-credentials.js';
import { GitSource } from '../../src/controller/sources/git-source.js';
import { commitFiles, createGitRemote } from './helpers/git-remote.js';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'platctl-gitsrc-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

describe('GitSource', () => {
  it('clones, follows new commits, snapshots only the path, and keeps old snapshots until told', async () => {
    const remote = await createGitRemote(root);
    const sha1 = commitFiles(remote, { 'platform/a.yaml': 'one\n', 'README.md': 'x' }, 'first');
    const src = new GitSource({
      repo: remote.bare,
      branch: 'main',
      path: 'platform/',
      cacheDir: join(root, 'cache'),
      auth: await resolveGitAuth({}),
    });
    const s1 = await src.fetch(new AbortController().signal);
    expect(s1.revision).toBe(sha1);
    expect(await readFile(join(s1.dir, 'a.yaml'), 'utf8')).toBe('one\n');
    expect(existsSync(join(s1.dir, 'README.md'))).toBe(false);
    expect(s1.suspendFile).toBe(false);

    const sha2 = commitFiles(
      remote,
      { 'platform/a.yaml': 'two\n', 'platform/.platctl-suspend': '' },
      'second',
    );
    const s2 = await src.fetch(new AbortController().signal);
    expect(s2.revision).toBe(sha2);
    expect(s2.suspendFile).toBe(true);
    expect(await readFile(join(s1.dir, 'a.yaml'), 'utf8')).toBe('one\n'); // the old one intact
    await src.retain([sha2]);
    expect(existsSync(s1.dir)).toBe(false);
    expect(existsSync(s2.dir)).toBe(true);
  });

  it('refuses a repository URL with credentials, without echoing them', () => {
    expect(
      () =>
        new GitSource({
          repo: 'https://bob:hunter2secret@git.example/r.git',
          branch: 'main',
          path: '.',
          cacheDir: join(root, 'c2'),
          auth: { env: {}, secrets: [], kind: 'none' },
        }),
    ).toThrow(/^(?!.*hunter2secret).*embeds credentials/);
  });

  it('refuses a --path that leaves the repository', () => {
    for (const path of ['../outside', '/etc', 'platform/../../x']) {
      expect(
        () =>
          new GitSource({
            repo: '/tmp/r.git',
            branch: 'main',
            path,
            cacheDir: join(root, 'c5'),
            auth: { env: {}, secrets: [], kind: 'none' },
          }),
      ).toThrow(/inside the repository/);
    }
  });

  it('reports a fetch failure as a git error without the token', async () => {
    const auth = await resolveGitAuth({ token: 'tok-very-secret-42' });
    const src = new GitSource({
      repo: join(root, 'does-not-exist.git'),
      branch: 'main',
      path: '.',
      cacheDir: join(root, 'c3'),
      auth,
    });
    const err = await src.fetch(new AbortController().signal).catch((e: unknown) => e);
    expect(err).toMatchObject({ code: 'git' });
    expect(String((err as Error).message)).not.toContain('tok-very-secret-42');
  });

  it('uses the token from the environment only (never as an argument)', async () => {
    // git records its own argv in GIT_TRACE; the token must not be there
    const remote = await createGitRemote(join(root, 'tr'));
    commitFiles(remote, { 'a.yaml': 'x' }, 'c');
    const auth = await resolveGitAuth({ token: 'tok-never-in-argv-77' });
    const trace = join(root, 'trace.log');
    const src = new GitSource({
      repo: remote.bare,
      branch: 'main',
      path: '.',
      cacheDir: join(root, 'c4'),
      auth: { ...auth, env: { ...auth.env, GIT_TRACE: trace } },
    });
    await src.fetch(new AbortController().signal);
    const log = await readFile(trace, 'utf8');
    expect(log).toContain('git');
    expect(log).not.toContain('tok-never-in-argv-77');
    expect(
      execFileSync('git', ['-C', join(root, 'c4', 'checkout'), 'config', '--list']).toString(),
    ).not.toContain('extraheader');
    await writeFile(trace, '');
  });

  it('asks for its credentials before every fetch: a rotated token file is used without a restart', async () => {
    const remote = await createGitRemote(join(root, 'rot'));
    commitFiles(remote, { 'a.yaml': 'x' }, 'c');
    const tokenFile = join(root, 'git-token');
    await writeFile(tokenFile, 'tok-one\n');
    const used: string[] = [];
    const src = new GitSource({
      repo: remote.bare,
      branch: 'main',
      path: '.',
      cacheDir: join(root, 'c5'),
      auth: async () => {
        const a = await resolveGitAuth({ credentialsFile: tokenFile });
        used.push(a.env.GIT_CONFIG_VALUE_0 ?? '');
        return a;
      },
    });
    await src.fetch(new AbortController().signal);
    await writeFile(tokenFile, 'tok-two\n');
    await src.fetch(new AbortController().signal);
    const basic = (t: string) =>
      `Authorization: Basic ${Buffer.from(`x-access-token:${t}`).toString('base64')}`;
    expect(used).toEqual([basic('tok-one'), basic('tok-two')]);
  });
});
