import { createHash } from 'node:crypto';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { watch as chokidarWatch } from 'chokidar';
import { PlatctlError } from '../../core/errors.js';
import { debounce } from './debounce.js';
import { SnapshotStore } from './snapshots.js';
import type { Snapshot, Source } from './source.js';

/** Walks `dir` and hashes relative paths and contents, so any edit yields a new revision (I/O). */
async function hashDirectory(dir: string): Promise<string> {
  const hash = createHash('sha256');
  const walk = async (d: string): Promise<void> => {
    const entries = (await readdir(d, { withFileTypes: true })).sort((a, b) =>
      a.name < b.name ? -1 : a.name > b.name ? 1 : 0,
    );
    for (const e of entries) {
      const full = join(d, e.name);
      if (e.isDirectory()) {
        if (e.name !== '.git' && e.name !== 'node_modules') await walk(full);
      } else if (e.isFile()) {
        hash
          .update(relative(dir, full))
          .update('\0')
          .update(await readFile(full))
          .update('\0');
      }
    }
  };
  await walk(dir);
  return hash.digest('hex').slice(0, 16);
}

/**
 * A local directory as a {@link Source}, for people iterating on manifests: the revision is a hash
 * of the files, and chokidar reports edits (debounced) so they are applied in moments.
 */
export class DirectorySource implements Source {
  readonly description: string;
  readonly #dir: string;
  readonly #snapshots: SnapshotStore;
  readonly #debounceMs: number;

  constructor(options: { dir: string; cacheDir: string; debounceMs?: number }) {
    this.#dir = options.dir;
    this.#snapshots = new SnapshotStore(options.cacheDir);
    this.#debounceMs = options.debounceMs ?? 500;
    this.description = `dir:${options.dir}`;
  }

  async fetch(_signal: AbortSignal): Promise<Snapshot> {
    try {
      const revision = `dir:${await hashDirectory(this.#dir)}`;
      return { revision, ...(await this.#snapshots.take(revision, this.#dir)) };
    } catch (err) {
      throw new PlatctlError('git', `reading ${this.#dir}: ${(err as Error).message}`, {
        cause: err,
      });
    }
  }

  /** Only snapshots still cached: a directory keeps no history. */
  async snapshotAt(revision: string): Promise<Snapshot | undefined> {
    const snap = await this.#snapshots.get(revision);
    return snap ? { revision, ...snap } : undefined;
  }

  retain(revisions: readonly string[]): Promise<void> {
    return this.#snapshots.retain(revisions);
  }

  watch(onChange: () => void): () => Promise<void> {
    const fire = debounce(onChange, this.#debounceMs);
    const watcher = chokidarWatch(this.#dir, {
      ignoreInitial: true,
      ignored: (p: string) => p.includes('/.git/') || p.endsWith('/.git'),
    });
    watcher.on('all', () => fire());
    return async () => {
      fire.cancel();
      await watcher.close();
    };
  }
}
