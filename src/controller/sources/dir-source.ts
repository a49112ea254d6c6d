import { watch as chokidarWatch } from 'chokidar';
import { PlatctlError } from '../../core/errors.js';
import { debounce } from './debounce.js';
import { readDirectory } from './dir-read.js';
import { SnapshotStore } from './snapshots.js';
import type { Snapshot, Source } from './source.js';

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
      const read = await readDirectory(this.#dir);
      const revision = `dir:${read.hash}`;
      return { revision, ...(await this.#snapshots.write(revision, read.entries)) };
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
