import { cp, mkdir, readdir, rename, rm, stat } from 'node:fs/promises';
import { join } from 'node:path';

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
  async take(revision: string, from: string): Promise<{ dir: string; suspendFile: boolean }> {
    const dir = join(this.#root, safeName(revision));
    if (!(await exists(dir))) {
      const tmp = `${dir}.tmp-${process.pid}`;
      await rm(tmp, { recursive: true, force: true });
      await mkdir(tmp, { recursive: true });
      // A path missing at this revision yields an empty snapshot: "no manifests", never a crash.
      if (await exists(from)) {
        await cp(from, tmp, {
          recursive: true,
          filter: (src) => !src.split(/[\\/]/).includes('.git'),
        });
      }
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
