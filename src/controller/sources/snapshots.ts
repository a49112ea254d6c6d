import { cp, mkdir, readdir, rename, rm, stat, symlink, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { DirEntry } from './dir-read.js';

/** The file whose presence in the manifests path suspends changes (the pod keeps running). */
const SUSPEND_FILE = '.platctl-suspend';

function safeName(revision: string): string {
  return revision.replace(/[^a-zA-Z0-9._-]/g, '_');
}

async function exists(path: string): Promise<boolean> {
  try {
    await stat(path);
    return true;
  } catch {
    return false;
  }
}

/**
 * Copies of the manifests path at given revisions, under `<cacheDir>/snapshots/` (I/O). A copy
 * lets the loop keep reconciling the last good revision while the checkout moves on.
 */
export class SnapshotStore {
  readonly #root: string;

  constructor(cacheDir: string) {
    this.#root = join(cacheDir, 'snapshots');
  }

  /** The snapshot directory of `revision`, copying `from` into it the first time. */
  take(revision: string, from: string): Promise<{ dir: string; suspendFile: boolean }> {
    return this.#materialize(revision, async (tmp) => {
      // A path missing at this revision yields an empty snapshot: "no manifests", never a crash.
      if (await exists(from)) {
        await cp(from, tmp, {
          recursive: true,
          // a relative link stays relative: resolved, it would point out of the snapshot
          verbatimSymlinks: true,
          filter: (src) => !src.split(/[\\/]/).includes('.git'),
        });
      }
    });
  }

  /** The snapshot directory of `revision`, written from `entries` (a directory's read) the first time. */
  write(
    revision: string,
    entries: readonly DirEntry[],
  ): Promise<{ dir: string; suspendFile: boolean }> {
    return this.#materialize(revision, async (tmp) => {
      const made = new Set<string>();
      for (const e of entries) {
        const path = join(tmp, e.rel);
        const parent = dirname(path);
        if (!made.has(parent)) {
          await mkdir(parent, { recursive: true });
          made.add(parent);
        }
        if ('data' in e) await writeFile(path, e.data);
        else await symlink(e.link, path);
      }
    });
  }

  /** Fills a scratch directory and renames it into place, unless `revision` is already there. */
  async #materialize(
    revision: string,
    fill: (tmp: string) => Promise<void>,
  ): Promise<{ dir: string; suspendFile: boolean }> {
    const dir = join(this.#root, safeName(revision));
    if (!(await exists(dir))) {
      const tmp = `${dir}.tmp-${process.pid}`;
      await rm(tmp, { recursive: true, force: true });
      await mkdir(tmp, { recursive: true });
      await fill(tmp);
      // Renamed into place so a crash never leaves a half-copied snapshot under a real name.
      await rename(tmp, dir);
    }
    return { dir, suspendFile: await exists(join(dir, SUSPEND_FILE)) };
  }

  /** The snapshot directory of `revision` if it was taken and kept, else undefined. */
  async get(revision: string): Promise<{ dir: string; suspendFile: boolean } | undefined> {
    const dir = join(this.#root, safeName(revision));
    if (!(await exists(dir))) return undefined;
    return { dir, suspendFile: await exists(join(dir, SUSPEND_FILE)) };
  }

  /** Removes every snapshot but those of `revisions`. */
  async retain(revisions: readonly string[]): Promise<void> {
    const keep = new Set(revisions.map(safeName));
    let names: string[];
    try {
      names = await readdir(this.#root);
    } catch {
      return;
    }
    for (const name of names) {
      if (!keep.has(name)) await rm(join(this.#root, name), { recursive: true, force: true });
    }
  }
}
