import { isAbsolute, resolve } from 'node:path';
import { isPostgresUrl } from '../state/pg/target.js';

// Every path a command line names is made absolute here, once, against the directory the
// command was started in. Below the CLI a path is used as given: a relative one joined to
// another directory (git's clone target under its cache, say) would be applied twice.

/** A file or directory flag, absolute (commander's argument parser). Pure but for `cwd`. */
export function absolutePath(value: string): string {
  return resolve(value);
}

/** A state target: a SQLite file made absolute; `:memory:` and a database URL as given. */
export function absoluteState(target: string): string {
  return target === ':memory:' || isPostgresUrl(target) ? target : resolve(target);
}

/**
 * A repository as git takes it: a URL (`https://`, `ssh://`, `file://`) or scp-like address
 * (`git@host:org/repo`) as given, a local path made absolute (git would otherwise read it
 * against the directory it runs in, the controller's cache).
 */
export function absoluteRepo(repo: string): string {
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(repo)) return repo;
  // scp-like: a colon before any slash (git's own rule); a drive letter is a path
  if (!isAbsolute(repo) && /^[^/]*:/.test(repo) && !/^[a-z]:[\\/]/i.test(repo)) return repo;
  return resolve(repo);
}
