import { mkdir, stat } from 'node:fs/promises';
import { isAbsolute, join, normalize } from 'node:path';
import { type SimpleGit, simpleGit } from 'simple-git';
import { PlatctlError, redact, scrub } from '../../core/errors.js';
import type { GitAuth } from './git-credentials.js';
import { hasEmbeddedSecret, stripUserinfo } from './safe-url.js';
import { SnapshotStore } from './snapshots.js';
import type { CommitInfo, Snapshot, Source } from './source.js';

/** What to follow. */
export interface GitSourceOptions {
  /** Repository URL or local path; must not embed credentials. */
  readonly repo: string;
  readonly branch: string;
  /** Directory of manifests inside the repository (`platform/`); `.` for the root. */
  readonly path: string;
  /**
   * Where the clone and the snapshots live; absolute (the CLI resolves it once: git runs in this
   * directory, so a relative one would be applied twice).
   */
  readonly cacheDir: string;
  /** git's environment; a function is asked before every fetch, so rotated credentials apply. */
  readonly auth: GitAuth | (() => Promise<GitAuth>);
  /** Upper bound for one git command. @default 120000 */
  readonly timeoutMs?: number;
}

/**
 * A git branch as a {@link Source}: clones once into `<cacheDir>/checkout`, fetches the branch on
 * each call, and snapshots `path` at the fetched commit. The only module that imports simple-git.
 */
export class GitSource implements Source {
  readonly description: string;
  readonly #options: GitSourceOptions;
  readonly #checkout: string;
  readonly #snapshots: SnapshotStore;
  /** The credentials the last git command ran with (its secrets are scrubbed from errors). */
  #lastAuth: GitAuth = { env: {}, secrets: [], kind: 'none' };

  constructor(options: GitSourceOptions) {
    if (hasEmbeddedSecret(options.repo)) {
      throw new PlatctlError(
        'usage',
        `--repo ${stripUserinfo(options.repo)} embeds credentials; use PLATCTL_GIT_TOKEN or --git-credentials-file`,
      );
    }
    if (isAbsolute(options.path) || normalize(options.path).split(/[\\/]/).includes('..')) {
      throw new PlatctlError(
        'usage',
        `--path must stay inside the repository, got ${options.path}`,
      );
    }
    if (!isAbsolute(options.cacheDir)) {
      throw new TypeError(`GitSource: cacheDir must be absolute, got ${options.cacheDir}`);
    }
    this.#options = options;
    this.#checkout = join(options.cacheDir, 'checkout');
    this.#snapshots = new SnapshotStore(options.cacheDir);
    this.description = `${stripUserinfo(options.repo)}#${options.branch}:${options.path}`;
  }

  /** The credentials as of now (re-read from their files before each fetch). */
  async #auth(): Promise<GitAuth> {
    const a = this.#options.auth;
    this.#lastAuth = typeof a === 'function' ? await a() : a;
    return this.#lastAuth;
  }

  #git(baseDir: string, signal: AbortSignal, auth = this.#lastAuth): SimpleGit {
    return simpleGit({
      baseDir,
      abort: signal,
      timeout: { block: this.#options.timeoutMs ?? 120_000 },
      // The token travels in GIT_CONFIG_* and the SSH key in GIT_SSH_COMMAND, both set by us.
      unsafe: { allowUnsafeConfigEnvCount: true, allowUnsafeSshCommand: true },
    }).env(auth.env);
  }

  async fetch(signal: AbortSignal): Promise<Snapshot> {
    const { repo, branch } = this.#options;
    try {
      const auth = await this.#auth();
      if (!(await isGitDir(this.#checkout))) {
        await mkdir(this.#options.cacheDir, { recursive: true });
        await this.#git(this.#options.cacheDir, signal, auth).clone(repo, this.#checkout, [
          '--branch',
          branch,
          '--single-branch',
          '--no-tags',
          '--no-checkout',
        ]);
      }
      const git = this.#git(this.#checkout, signal, auth);
      await git.fetch([
        '--prune',
        '--no-tags',
        'origin',
        `+refs/heads/${branch}:refs/remotes/origin/${branch}`,
      ]);
      const revision = (await git.revparse([`refs/remotes/origin/${branch}^{commit}`])).trim();
      return await this.#snapshot(git, revision);
    } catch (err) {
      throw this.#failure(err);
    }
  }

  /** Snapshots an older commit of the clone (the last good one after a restart). */
  async snapshotAt(revision: string, signal: AbortSignal): Promise<Snapshot | undefined> {
    if (!/^[0-9a-f]{7,64}$/.test(revision) || !(await isGitDir(this.#checkout))) return undefined;
    const git = this.#git(this.#checkout, signal, await this.#auth());
    try {
      await git.raw(['cat-file', '-e', `${revision}^{commit}`]);
    } catch {
      return undefined; // not in the clone (history rewritten, or a fresh cache)
    }
    try {
      return await this.#snapshot(git, revision);
    } catch (err) {
      throw this.#failure(err);
    }
  }

  async #snapshot(git: SimpleGit, revision: string): Promise<Snapshot> {
    const cached = await this.#snapshots.get(revision);
    const commit = await commitInfo(git, revision);
    if (cached) return { revision, ...cached, commit };
    await git.raw(['checkout', '--force', '--detach', revision]);
    await git.raw(['clean', '-ffdx']);
    const from = join(this.#checkout, normalize(this.#options.path));
    return { revision, ...(await this.#snapshots.take(revision, from)), commit };
  }

  /** A git failure as a `git` error, without credentials or the raw repository URL. */
  #failure(err: unknown): PlatctlError {
    if (err instanceof PlatctlError) return err;
    const { repo } = this.#options;
    const raw = err instanceof Error ? err.message : String(err);
    const message = redact(scrub(raw, this.#lastAuth.secrets))
      .split(repo)
      .join(stripUserinfo(repo));
    return new PlatctlError('git', `fetching ${this.description}: ${message.trim()}`);
  }

  retain(revisions: readonly string[]): Promise<void> {
    return this.#snapshots.retain(revisions);
  }
}

/** Subject, author and commit time of `revision`. */
async function commitInfo(git: SimpleGit, revision: string): Promise<CommitInfo> {
  const out = await git.raw(['log', '-1', '--format=%an%x1f%cI%x1f%s', revision]);
  const [author = '', time = '', message = ''] = out.trim().split('\x1f');
  return { author, time, message };
}

async function isGitDir(dir: string): Promise<boolean> {
  try {
    return (await stat(join(dir, '.git'))).isDirectory();
  } catch {
    return false;
  }
}
