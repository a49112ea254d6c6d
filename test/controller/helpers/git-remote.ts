import { execFileSync } from 'node:child_process';
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { dirname, join } from 'node:path';

/** A bare repository and a working clone that commits to it (loopback only: file paths). */
export interface GitRemote {
  readonly bare: string;
  readonly work: string;
}

const GIT_ENV = {
  ...process.env,
  GIT_AUTHOR_NAME: 'test',
  GIT_AUTHOR_EMAIL: 'test@example.invalid',
  GIT_COMMITTER_NAME: 'test',
  GIT_COMMITTER_EMAIL: 'test@example.invalid',
  GIT_CONFIG_NOSYSTEM: '1',
};

function git(cwd: string, ...args: string[]): string {
  return execFileSync('git', args, { cwd, env: GIT_ENV, stdio: ['ignore', 'pipe', 'pipe'] })
    .toString()
    .trim();
}

/** `git init --bare` plus a clone with `main` checked out. */
export async function createGitRemote(root: string): Promise<GitRemote> {
  const bare = join(root, 'remote.git');
  const work = join(root, 'work');
  await mkdir(root, { recursive: true });
  git(root, 'init', '--quiet', '--bare', '--initial-branch=main', bare);
  git(root, 'clone', '--quiet', bare, work);
  git(work, 'checkout', '--quiet', '-B', 'main');
  return { bare, work };
}

/**
 * Writes (content string) or deletes (null) files in the working clone, commits and pushes to
 * `main`; returns the new commit SHA.
 */
export function commitFiles(
  remote: GitRemote,
  files: Record<string, string | null>,
  message: string,
): string {
  for (const [path, content] of Object.entries(files)) {
    const full = join(remote.work, path);
    if (content === null) rmSync(full, { force: true, recursive: true });
    else {
      mkdirSync(dirname(full), { recursive: true });
      writeFileSync(full, content);
    }
  }
  git(remote.work, 'add', '-A');
  git(remote.work, 'commit', '--quiet', '--allow-empty', '-m', message);
  git(remote.work, 'push', '--quiet', 'origin', 'main');
  return git(remote.work, 'rev-parse', 'HEAD');
}
