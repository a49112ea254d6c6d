import { DirectorySource } from './dir-source.js';
import { type GitCredentialInput, resolveGitAuth } from './git-credentials.js';
import type { Source } from './source.js';

/** Where desired state comes from. */
export type SourceConfig =
  | ({
      readonly kind: 'git';
      readonly repo: string;
      readonly branch: string;
      readonly path: string;
    } & GitCredentialInput)
  | { readonly kind: 'dir'; readonly dir: string; readonly debounceMs?: number };

/** The configured source, ready to fetch (reads credential files now and before each fetch). */
export async function createSource(config: {
  readonly source: SourceConfig;
  readonly cacheDir: string;
}): Promise<Source> {
  const s = config.source;
  if (s.kind === 'dir') {
    return new DirectorySource({
      dir: s.dir,
      cacheDir: config.cacheDir,
      ...(s.debounceMs ? { debounceMs: s.debounceMs } : {}),
    });
  }
  // read once now, so a missing file stops the start; then before every fetch (rotation)
  await resolveGitAuth(s);
  // imported here: a watched directory never loads git's client (simple-git)
  const { GitSource } = await import('./git-source.js');
  return new GitSource({
    repo: s.repo,
    branch: s.branch,
    path: s.path,
    cacheDir: config.cacheDir,
    auth: () => resolveGitAuth(s),
  });
}
