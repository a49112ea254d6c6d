import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync } from 'node:fs';
import { lstat, mkdir, realpath, rename, rm, writeFile } from 'node:fs/promises';
import { join, relative, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { stringify } from 'yaml';
import { PlatctlError } from '../core/errors.js';
import { packageRoot } from '../core/package-root.js';
import type { Manifest } from '../model/manifest.js';
import { sortManifests } from './manifests.js';

/** The file of the organization-wide kinds (users). */
const USERS_FILE = 'users.yaml';

/** `project-<name>.yaml`, the name made safe for any file system. Pure. */
function projectFile(project: string): string {
  return `project-${project.replace(/[^A-Za-z0-9._-]/g, '_')}.yaml`;
}

/**
 * The manifest set as files, one per project (`project-<name>.yaml`) and one for users
 * (`users.yaml`): each starts with a `yaml-language-server` schema line pointing at `schemaRef`,
 * lists its documents in a stable order (kind, then identity key) and carries no timestamp, so
 * importing an unchanged platform twice writes the same bytes. `documentText` is
 * {@link renderDocument} or gives the same text (rendered ahead). Pure.
 */
export function renderFiles(
  manifests: readonly Manifest[],
  schemaRef: string,
  documentText: (m: Manifest) => string = renderDocument,
): Map<string, string> {
  const byFile = new Map<string, Manifest[]>();
  for (const m of manifests) {
    const project = m.metadata.project;
    const file = project === undefined ? USERS_FILE : projectFile(project);
    // pushed, not copied: a copy per manifest made 100,000 manifests a quadratic 1.7 billion copies
    const list = byFile.get(file);
    if (list) list.push(m);
    else byFile.set(file, [m]);
  }
  const files = new Map<string, string>();
  for (const file of [...byFile.keys()].sort()) {
    const docs = sortManifests(byFile.get(file)!);
    const project = docs[0]?.metadata.project;
    const title = project === undefined ? 'Local users' : `Project ${JSON.stringify(project)}`;
    const header = [
      `# yaml-language-server: $schema=${schemaRef}`,
      `# ${title}, written by \`platctl import\`: only the fields a manifest owns.`,
    ];
    if (project === undefined) {
      header.push(
        '# Passwords are never read back: each user names the variable platctl would read its',
        '# password from if it ever had to create the user again. Groups cannot be read either.',
      );
    }
    const body = docs.map(documentText).join('---\n');
    files.set(file, `${header.join('\n')}\n${body}`);
  }
  return files;
}

/** One manifest's YAML document, as a file lists it (no `---`, no line folding). Pure. */
export function renderDocument(m: Manifest): string {
  return stringify(m, { lineWidth: 0 });
}

/**
 * The `$schema` reference of the files in `outDir`: the path, relative to it, of the manifest
 * schema shipped with platctl. Pure but for locating the package.
 */
export function schemaRefFor(outDir: string): string {
  const schema = fileURLToPath(new URL('schemas/manifest.schema.json', packageRoot()));
  return relative(outDir, schema).split(sep).join('/');
}

/**
 * Writes the files into `outDir` (I/O), creating it. A directory that already holds YAML files
 * is refused unless `overwrite`: import writes a fresh set, it does not merge into one. Nothing
 * is ever written through a link: `outDir` itself may not be a symbolic link (its parents may:
 * they are the caller's), and an entry where a file goes that is a
 * symbolic link (or anything but a regular file) is refused, naming it, before any file is
 * written; each file is written to a new temporary entry (`wx`: created, never opened if it
 * exists) and renamed over its name, which replaces the entry itself, never a file it links to
 * (a hard link keeps its old content; a link swapped in after the check is replaced).
 */
export async function writeFiles(
  outDir: string,
  files: ReadonlyMap<string, string>,
  overwrite = false,
): Promise<void> {
  if (!overwrite && existsSync(outDir)) {
    const yaml = readdirSync(outDir).filter((f) => /\.ya?ml$/i.test(f));
    if (yaml.length > 0) {
      throw new PlatctlError(
        'usage',
        `${outDir} already holds manifests (${yaml.slice(0, 3).join(', ')}${yaml.length > 3 ? ', ...' : ''}); choose an empty directory or pass --force to overwrite`,
      );
    }
  }
  const root = await lstat(outDir).catch(() => undefined);
  if (root?.isSymbolicLink()) {
    throw new PlatctlError(
      'usage',
      `${outDir} is a symbolic link (to ${await realpath(outDir).catch(() => 'nowhere')}); import never writes through one: pass the directory itself`,
    );
  }
  await mkdir(outDir, { recursive: true });
  for (const name of files.keys()) await refuseLink(join(outDir, name));
  for (const [name, text] of files) {
    const temporary = join(outDir, `.${name}.${randomBytes(6).toString('hex')}.tmp`);
    try {
      await writeFile(temporary, text, { encoding: 'utf8', flag: 'wx' });
      await rename(temporary, join(outDir, name));
    } catch (err) {
      await rm(temporary, { force: true });
      throw err;
    }
  }
}

/** Refuses `path` when it exists as anything but a regular file (I/O: one `lstat`). */
async function refuseLink(path: string): Promise<void> {
  const entry = await lstat(path).catch((err: NodeJS.ErrnoException) => {
    if (err.code === 'ENOENT') return undefined;
    throw err;
  });
  if (entry === undefined || entry.isFile()) return;
  const what = entry.isSymbolicLink() ? 'a symbolic link' : 'not a regular file';
  throw new PlatctlError(
    'usage',
    `${path} is ${what}; import never writes through one: remove it or choose another --out`,
  );
}
