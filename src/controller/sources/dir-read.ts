import { createHash } from 'node:crypto';
import { readdir, readFile, readlink } from 'node:fs/promises';
import { join } from 'node:path';

/** One file or symlink of a watched directory, as it was read for its revision. */
export type DirEntry =
  | { readonly rel: string; readonly data: Buffer }
  | { readonly rel: string; readonly link: string };

/** What one read of a watched directory found: its content hash and the bytes hashed. */
export interface DirRead {
  /** The first 16 hex digits of the hash of every entry's relative path and content. */
  readonly hash: string;
  readonly entries: readonly DirEntry[];
}

/** Files read at once: enough to keep the disk busy, well under any open-files limit. */
const READ_BATCH = 32;

const byName = (a: { name: string }, b: { name: string }) =>
  a.name < b.name ? -1 : a.name > b.name ? 1 : 0;

/**
 * Reads `dir` once (I/O): every file's bytes and every symlink's target, in name order, `.git`
 * left out, and hashes what it read. The snapshot is written from these very bytes, so a file
 * edited during the read belongs wholly to this revision or to the next one, never to both.
 * Files hash as `path NUL bytes NUL` (the revisions of directories without symlinks are those
 * platctl always gave); a symlink as `path NUL "symlink:" target NUL`, so retargeting one is a
 * new revision.
 */
export async function readDirectory(dir: string): Promise<DirRead> {
  const entries: DirEntry[] = [];
  const walk = async (abs: string, rel: string): Promise<void> => {
    const found = (await readdir(abs, { withFileTypes: true })).sort(byName);
    const pending: { rel: string; abs: string }[] = [];
    const flush = async () => {
      const data = await Promise.all(pending.map((p) => readFile(p.abs)));
      for (const [i, d] of data.entries()) entries.push({ rel: pending[i]!.rel, data: d });
      pending.length = 0;
    };
    for (const e of found) {
      const full = join(abs, e.name);
      const name = rel === '' ? e.name : `${rel}/${e.name}`;
      if (e.isDirectory()) {
        if (e.name === '.git') continue;
        await flush();
        await walk(full, name);
      } else if (e.isFile()) {
        pending.push({ rel: name, abs: full });
        if (pending.length >= READ_BATCH) await flush();
      } else if (e.isSymbolicLink()) {
        await flush();
        entries.push({ rel: name, link: await readlink(full) });
      }
    }
    await flush();
  };
  await walk(dir, '');
  const hash = createHash('sha256');
  for (const e of entries) {
    hash.update(e.rel).update('\0');
    if ('data' in e) hash.update(e.data);
    else hash.update('symlink:').update(e.link);
    hash.update('\0');
  }
  return { hash: hash.digest('hex').slice(0, 16), entries };
}
