import type { ControllerConfig } from '../config.js';
import type { SourceView } from '../http/control-views.js';
import { DirectorySource } from './dir-source.js';
import { resolveGitAuth } from './git-credentials.js';
import { stripUserinfo } from './safe-url.js';
import type { Source } from './source.js';

/** The configured source, ready to fetch (reads credential files now and before each fetch). */
export async function createSource(config: ControllerConfig): Promise<Source> {
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

/** The source as the control API shows it: no credentials. */
export function sourceView(config: ControllerConfig['source']): SourceView {
  if (config.kind === 'dir') return { dir: config.dir };
  return { repo: stripUserinfo(config.repo), branch: config.branch, path: config.path };
}
