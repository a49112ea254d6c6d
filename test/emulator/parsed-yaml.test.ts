import {
  appendFileSync,
  cpSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { afterEach, describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { DIALECTS } from '../../src/core/dialect.js';
import { packageRoot } from '../../src/core/package-root.js';
import { dialectDocument } from '../../src/emulator/openapi/dialect-document.js';
import { loadDocument } from '../../src/emulator/openapi/load-document.js';
import { parsedYamlFile, parsedYamlOf, readYaml } from '../../src/emulator/openapi/parsed-yaml.js';

const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
});

/** A scratch directory as a URL with a trailing slash. */
function scratch(): URL {
  const dir = mkdtempSync(join(tmpdir(), 'parsed-yaml-'));
  dirs.push(dir);
  return pathToFileURL(`${dir}/`);
}

describe("the build's parsed api/ YAML", () => {
  it('serves an entry only for the very text it was made from: an edited file is parsed again', () => {
    const dir = scratch();
    const file = new URL('a.yaml', dir);
    writeFileSync(file, 'a: 1\n');
    const cache = new URL('parsed.json', dir);
    // the build's entry for this text, forged so that a read through it shows
    const built = JSON.parse(parsedYamlOf(dir)) as { entries: Record<string, unknown> };
    const [hash] = Object.keys(built.entries);
    writeFileSync(
      cache,
      JSON.stringify({ entries: { [hash as string]: { a: 'from the build' } } }),
    );
    expect(readYaml(file, cache)).toEqual({ a: 'from the build' });
    writeFileSync(file, 'a: 2\n');
    expect(readYaml(file, cache)).toEqual({ a: 2 });
  });

  it('gives each caller a fresh object, and parses when there is no build', () => {
    const dir = scratch();
    const file = new URL('a.yaml', dir);
    writeFileSync(file, 'a: { b: [1] }\n');
    const cache = new URL('parsed.json', dir);
    writeFileSync(cache, parsedYamlOf(dir));
    const first = readYaml(file, cache) as { a: { b: number[] } };
    first.a.b.push(2);
    expect(readYaml(file, cache)).toEqual({ a: { b: [1] } });
    expect(readYaml(file, new URL('missing.json', dir))).toEqual({ a: { b: [1] } });
  });

  it('leaves out what JSON cannot hold as it is and what does not parse', () => {
    const dir = scratch();
    writeFileSync(new URL('inf.yaml', dir), 'a: .inf\n');
    writeFileSync(new URL('bad.yaml', dir), 'a: [\n');
    writeFileSync(new URL('ok.yml', dir), 'b: 1\n');
    const { entries } = JSON.parse(parsedYamlOf(dir)) as { entries: Record<string, unknown> };
    expect(Object.values(entries)).toEqual([{ b: 1 }]);
  });

  it("holds every YAML file of api/, and both dialects' documents are what the YAML says", () => {
    const api = new URL('api/', packageRoot());
    const files = (readdirSync(api, { recursive: true }) as string[]).filter((f) =>
      f.endsWith('.yaml'),
    );
    expect(files.length).toBeGreaterThanOrEqual(7);
    // the build's file (the global setup builds dist/ when it is older than api/) has them all
    const { entries } = JSON.parse(readFileSync(parsedYamlFile(), 'utf8')) as {
      entries: Record<string, unknown>;
    };
    const parsed = files.map((f) => parse(readFileSync(new URL(f, api), 'utf8')));
    expect(Object.values(entries)).toEqual(expect.arrayContaining(parsed));
    expect(Object.keys(entries)).toHaveLength(files.length);
    // a copy of api/ whose every text differs (a comment added) is parsed, not read from the build
    const copy = scratch();
    cpSync(api, copy, { recursive: true });
    for (const f of files) appendFileSync(new URL(f, copy), '# edited\n');
    for (const name of ['spec', 'rafay'] as const) {
      const built = dialectDocument(loadDocument(), DIALECTS[name]);
      expect(built).toEqual(dialectDocument(loadDocument(copy), DIALECTS[name], copy));
    }
  });
});
