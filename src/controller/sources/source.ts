/** One immutable copy of the manifests at a revision, which the loop can reconcile any time later. */
export interface Snapshot {
  /** Git commit SHA, or `dir:<content hash>` for a watched directory. */
  readonly revision: string;
  /** A directory holding the manifests of that revision (the repository's `--path` only). */
  readonly dir: string;
  /** True when the repository path holds a `.platctl-suspend` file at this revision. */
  readonly suspendFile: boolean;
  /** The commit's subject, author and time, when the source is git. */
  readonly commit?: CommitInfo;
}

/** What people recognise a commit by. */
export interface CommitInfo {
  readonly message: string;
  readonly author: string;
  /** ISO 8601 commit time. */
  readonly time: string;
}

/**
 * Where desired state comes from: a git branch or a local directory. Implementations are the only
 * modules that touch git or watch files; the loop sees snapshots.
 */
export interface Source {
  /** A description safe to log and show in status (no credentials). */
  readonly description: string;
  /**
   * Fetches the newest revision and returns its snapshot (I/O). The same revision returns the
   * same snapshot without copying again. Throws a `PlatctlError` with code `git` on failure.
   */
  fetch(signal: AbortSignal): Promise<Snapshot>;
  /**
   * The snapshot of an older revision (I/O): after a restart, the last good one while the newest
   * is rejected. Undefined when that revision can no longer be had.
   */
  snapshotAt?(revision: string, signal: AbortSignal): Promise<Snapshot | undefined>;
  /** Deletes every snapshot except those of the given revisions (the applied and the newest). */
  retain(revisions: readonly string[]): Promise<void>;
  /**
   * Calls `onChange` (debounced) when the source may have changed without waiting for the next
   * interval; returns a function that stops watching. Undefined when the source cannot watch.
   */
  watch?(onChange: () => void): () => Promise<void>;
}
