import { createHash } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import {
  lstat,
  mkdir,
  mkdtemp,
  readFile,
  readlink,
  rm,
  stat,
  symlink,
  writeFile,
} from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';

/** Files whose first read is followed at once by this edit: an editor saving mid-fetch. */
const editAfterRead = new Map<string, string>();
vi.mock('node:fs/promises', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs/promises')>();
  const readAndEdit = async (...args: Parameters<typeof fs.readFile>) => {
    const data = await fs.readFile(...args);
    const path = String(args[0]);
    const edit = editAfterRead.get(path);
    if (edit !== undefined) {
      editAfterRead.delete(path);
      writeFileSync(path, edit);
    }
    return data;
  };
  return { ...fs, readFile: readAndEdit, default: { ...fs, readFile: readAndEdit } };
});
const { DirectorySource } = await import('../../src/controller/sources/dir-source.js');
const { SnapshotStore } = await import('../../src/controller/sources/snapshots.js');
const { loadAndValidate } = await import('../../src/manifests/index.js');

let root: string;
const signal = new AbortController().signal;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'platctl-dirsnap-'));
});
afterAll(async () => {
  await rm(root, { recursive: true, force: true });
});

/** The revision a directory of these files had before this change (relative path, NUL, bytes, NUL). */
function revisionOf(files: [string, string][]): string {
  const hash = createHash('sha256');
  for (const [rel, text] of files) hash.update(rel).update('\0').update(text).update('\0');
  return `dir:${hash.digest('hex').slice(0, 16)}`;
}

describe('DirectorySource snapshots', () => {
  it('holds the bytes its revision was hashed from, even when a file is edited mid-fetch', async () => {
    const dir = join(root, 'race');
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'a.yaml'), 'one');
    editAfterRead.set(join(dir, 'a.yaml'), 'two');
    const src = new DirectorySource({ dir, cacheDir: join(root, 'race-cache') });
    const snap = await src.fetch(signal);
    expect(snap.revision).toBe(revisionOf([['a.yaml', 'one']]));
    expect(await readFile(join(snap.dir, 'a.yaml'), 'utf8')).toBe('one');
    // the edit is the next revision, with its own snapshot
    const next = await src.fetch(signal);
    expect(next.revision).toBe(revisionOf([['a.yaml', 'two']]));
    expect(await readFile(join(next.dir, 'a.yaml'), 'utf8')).toBe('two');
  });

  it('keeps revisions as they were, nested files and dot-files included, .git left out', async () => {
    const dir = join(root, 'tree');
    await mkdir(join(dir, 'team', 'deep'), { recursive: true });
    await mkdir(join(dir, '.git'), { recursive: true });
    await writeFile(join(dir, 'b.yaml'), 'kind: B');
    await writeFile(join(dir, 'team', 'deep', 'c.yaml'), 'kind: C');
    await writeFile(join(dir, '.platctl-suspend'), '');
    await writeFile(join(dir, '.git', 'HEAD'), 'ref: x');
    const src = new DirectorySource({ dir, cacheDir: join(root, 'tree-cache') });
    const snap = await src.fetch(signal);
    expect(snap.revision).toBe(
      revisionOf([
        ['.platctl-suspend', ''],
        ['b.yaml', 'kind: B'],
        ['team/deep/c.yaml', 'kind: C'],
      ]),
    );
    expect(snap.suspendFile).toBe(true);
    expect(await readFile(join(snap.dir, 'team', 'deep', 'c.yaml'), 'utf8')).toBe('kind: C');
    await expect(stat(join(snap.dir, '.git'))).rejects.toThrow(/ENOENT/);
    // the same revision again is the same snapshot, not written anew
    const before = (await stat(join(snap.dir, 'b.yaml'))).mtimeMs;
    const again = await src.fetch(signal);
    expect(again.dir).toBe(snap.dir);
    expect((await stat(join(again.dir, 'b.yaml'))).mtimeMs).toBe(before);
  });

  it('copies a symlink as a symlink, and a new link target is a new revision', async () => {
    const dir = join(root, 'links');
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'real.yaml'), 'kind: R');
    await writeFile(join(dir, 'other.yaml'), 'kind: O');
    await symlink('real.yaml', join(dir, 'alias.yaml'));
    const src = new DirectorySource({ dir, cacheDir: join(root, 'links-cache') });
    const snap = await src.fetch(signal);
    expect((await lstat(join(snap.dir, 'alias.yaml'))).isSymbolicLink()).toBe(true);
    expect(await readlink(join(snap.dir, 'alias.yaml'))).toBe('real.yaml');
    await rm(join(dir, 'alias.yaml'));
    await symlink('other.yaml', join(dir, 'alias.yaml'));
    expect((await src.fetch(signal)).revision).not.toBe(snap.revision);
  });

  it('loads a snapshot whose manifest is a relative symlink, watched or from git (no escape)', async () => {
    const dir = join(root, 'linked');
    await mkdir(join(dir, 'base'), { recursive: true });
    await writeFile(
      join(dir, 'base', 'ws.txt'),
      'apiVersion: paas.envmgmt.io/v1\nkind: Workspace\nmetadata:\n  name: linked\n  project: p1\n',
    );
    // a text file only the link names as YAML: loaded once, through the link
    await symlink('base/ws.txt', join(dir, 'ws-link.yaml'));
    const watched = await new DirectorySource({ dir, cacheDir: join(root, 'linked-w') }).fetch(
      signal,
    );
    const copied = await new SnapshotStore(join(root, 'linked-g')).take('abc123', dir);
    for (const snap of [watched, copied]) {
      const loaded = await loadAndValidate({ paths: [snap.dir] });
      expect(loaded.diagnostics.map((d) => d.code)).toEqual([]);
      expect(loaded.manifests.map((m) => m.key)).toEqual(['Workspace/p1/linked']);
    }
  });

  it('names the directory when it cannot be read', async () => {
    const src = new DirectorySource({
      dir: join(root, 'missing'),
      cacheDir: join(root, 'm-cache'),
    });
    await expect(src.fetch(signal)).rejects.toThrow(/reading .*missing/);
  });
});
