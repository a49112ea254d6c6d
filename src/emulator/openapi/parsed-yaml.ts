import { readdirSync, readFileSync } from 'node:fs';
import { isDeepStrictEqual } from 'node:util';
import { sha256Hex } from '../../core/hash.js';
import { packageRoot } from '../../core/package-root.js';
import { yamlLib } from '../../core/yaml-lib.js';

/**
 * Where `npm run build` writes every YAML file of `api/` already parsed, keyed by the SHA-256 of
 * its text (`dist/api/parsed-yaml.json`). Parsing the document's 74 KB of YAML was 0.3–0.4 s of
 * CPU of every emulator's start (tests and CI start about a hundred, in-process and as
 * `platctl emulator`); reading it as JSON is about a millisecond.
 */
export function parsedYamlFile(root: URL = packageRoot()): URL {
  return new URL('dist/api/parsed-yaml.json', root);
}

/** The build's file: `{ entries: { [sha256 of a text]: that text parsed } }`. */
interface ParsedYaml {
  readonly entries: Readonly<Record<string, unknown>>;
}

const loaded = new Map<string, Readonly<Record<string, unknown>>>();

/** The entries of `file`, read once per process; none when it is missing or unreadable. */
function entriesOf(file: URL): Readonly<Record<string, unknown>> {
  let entries = loaded.get(file.href);
  if (!entries) {
    try {
      entries = (JSON.parse(readFileSync(file, 'utf8')) as ParsedYaml).entries ?? {};
    } catch {
      entries = {}; // not built (a clone before `npm run build`): every file is parsed below
    }
    loaded.set(file.href, entries);
  }
  return entries;
}

/**
 * The YAML file `url` parsed: the build's parse of this very text when {@link parsedYamlFile}
 * holds one (looked up by the text's hash, so an edited file is never served stale, from `src/`
 * or `dist/`), else the text parsed now. Always a fresh object the caller may change. Reads files.
 */
export function readYaml(url: URL, cache: URL = parsedYamlFile()): unknown {
  const text = readFileSync(url, 'utf8');
  const entries = entriesOf(cache);
  const key = sha256Hex(text);
  return Object.hasOwn(entries, key) ? structuredClone(entries[key]) : yamlLib().parse(text);
}

/**
 * What the build writes to {@link parsedYamlFile}: every `.yaml`/`.yml` file under `apiDir`
 * parsed, keyed by its text's hash, as JSON. A file that does not parse, or whose parse JSON
 * cannot hold as it is (a `.inf`, a date), is left out: the emulator parses it at runtime and
 * reports it as before. Reads files.
 */
export function parsedYamlOf(apiDir: URL): string {
  const entries: Record<string, unknown> = {};
  const files = (readdirSync(apiDir, { recursive: true }) as string[])
    .filter((f) => f.endsWith('.yaml') || f.endsWith('.yml'))
    .sort();
  for (const file of files) {
    const text = readFileSync(new URL(file, apiDir), 'utf8');
    let value: unknown;
    try {
      value = yamlLib().parse(text);
    } catch {
      continue;
    }
    if (isDeepStrictEqual(JSON.parse(JSON.stringify(value)), value))
      entries[sha256Hex(text)] = value;
  }
  return `${JSON.stringify({ entries })}\n`;
}
