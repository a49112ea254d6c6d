import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { tooDeepAt } from '../../src/manifests/depth.js';
import { plainDocuments } from '../../src/manifests/plain-yaml.js';

/** What the `yaml` library makes of `text`: every document's data, or undefined on any problem. */
function slow(text: string): unknown[] | undefined {
  const docs = parseAllDocuments(text, { prettyErrors: false, uniqueKeys: true });
  if (!Array.isArray(docs)) return [];
  if (docs.some((d) => d.errors.length > 0 || d.warnings.length > 0)) return undefined;
  return docs.map((d) => (d.contents === null ? null : d.toJS({ maxAliasCount: 1000 })));
}

/** The non-empty documents with their indexes: what the loader keeps of a source. */
const present = (docs: unknown[]) =>
  docs.flatMap((d, i) => (d === null || d === undefined ? [] : [[i, d]]));

// Scalars where the core schema's types meet, and text that looks like YAML's own syntax.
const TRICKY = [
  ...['1_000', '0o17', '0x1F', '-0x1F', '+12', '-0', '012', '1e3', '.5', '-.5', '5.', '1.10'],
  ...['+.inf', '-.Inf', '.NaN', 'NaN', 'true', 'True', 'tRUE', 'yes', 'on', 'false', 'FALSE'],
  ...['~', 'null', 'Null', 'nULL', '2024-01-01', '12:30', 'v1.29.4', '10.0.0.0/8', 'a@b.c'],
  ...['-', '- x', '-x', ': x', ':x', 'a: b', 'a:b', 'a:', 'a #c', 'a#c', 'a # c', '? x', '?x'],
  ...['"q"', "'q'", '"a\\"b"', "'it''s'", '"a', "'a", '[]', '{}', '[a, b]', '{a: 1}', '[a,]'],
  ...['|', '>', '&a x', '*a', '!t x', '%x', '@x', '`x', ',x', 'x,y', 'x]', 'a  b', 'x ', ''],
  ...['[a: 1]', '{a}', '{a:1}', '[[a], {b: c}]', '{a: [1, 2], b: {c: d}}', '[a #c]', "it's"],
  ...['a[b', 'a{b', "it's [x", 'a]b', '[[a]]', '{a: {b: [c]}}', '[{a: [b, {c: d}]}]'],
  ...['http://x/y', '{a: http://x}', '[-1, - 1]', '["a", \'b\']', '[a b, c]', '{a: , b: 1}'],
];
const scalar = fc.oneof(
  {
    weight: 30,
    arbitrary: fc.constantFrom('x', 'a b', '12', '1.5', 'v1', '"q"', '[a, 1]', '{a: b}'),
  },
  { weight: 3, arbitrary: fc.constantFrom(...TRICKY) },
  fc.stringMatching(/^[a-z0-9 :#,[\]{}'"\-.]{0,6}$/),
);
// 'nome' shares 'name''s slot in the reader's key cache (first character and length)
const KEYS = [
  'name',
  'nome',
  'kind',
  'a',
  'b',
  'c',
  'd',
  'e',
  'spec',
  'a.b/c-d',
  '_x',
  'x1',
  'True1',
];
const key = fc.oneof(
  { weight: 30, arbitrary: fc.constantFrom(...KEYS) },
  fc.constantFrom('true', 'null', 'NULL', '1', '-a', '"k"', '__proto__', 'toString', 'a b'),
  fc.constantFrom('~', "'k'", '[a]', 'k ', '.inf', 'a:b', 'a#', 'k'.repeat(1025)),
);
const comment = fc.oneof(
  { weight: 12, arbitrary: fc.constant('') },
  fc.constantFrom(' # c', '  #c', '#c', ' ', ' #'),
);

/** A node to be written at an indentation: on its key's or dash's line (`inline`), or below. */
type Node = { inline?: string; lines: string[] };
type Writer = (indent: number) => Node;
const pad = (n: number) => ' '.repeat(n);
const step = fc.constantFrom(1, 2, 2, 2, 3, 4);
const leaf: fc.Arbitrary<Writer> = fc.tuple(scalar, comment).map(([s, c]) => () => ({
  inline: s + c,
  lines: [],
}));

const child = (depth: number): fc.Arbitrary<Writer> =>
  depth <= 0
    ? leaf
    : fc.oneof({ weight: 4, arbitrary: leaf }, mapping(depth - 1), sequence(depth - 1));

function mapping(depth: number): fc.Arbitrary<Writer> {
  return fc
    .array(fc.tuple(key, child(depth), step, comment, fc.boolean()), { minLength: 1, maxLength: 3 })
    .map((entries) => (indent: number) => ({
      lines: entries.flatMap(([k, value, s, c, sameIndent]) => {
        const n = value(indent + s);
        if (n.inline !== undefined) return [`${pad(indent)}${k}: ${n.inline}`];
        // a sequence may stand at its key's indentation
        const below = sameIndent && n.lines[0]?.trimStart().startsWith('-') ? value(indent) : n;
        return [`${pad(indent)}${k}:${c}`, ...below.lines];
      }),
    }));
}

function sequence(depth: number): fc.Arbitrary<Writer> {
  return fc
    .array(fc.tuple(child(depth), step, fc.boolean()), { minLength: 1, maxLength: 3 })
    .map((items) => (indent: number) => ({
      lines: items.flatMap(([item, s, compact]) => {
        const n = item(indent + 2);
        if (n.inline !== undefined) return [`${pad(indent)}- ${n.inline}`];
        const first = n.lines[0] ?? '';
        if (compact && !first.trimStart().startsWith('-')) {
          return [`${pad(indent)}- ${first.slice(indent + 2)}`, ...n.lines.slice(1)];
        }
        return [`${pad(indent)}-`, ...item(indent + s).lines];
      }),
    }));
}

/** Lines mixed in where a person might leave them: blanks, comments, spaces, stray indents. */
const noise = fc.constantFrom('', '# note', '  # note', '   ', ' x: 1', '...', '---', '- y', 'x');
const doc = fc
  .tuple(
    fc.oneof({ weight: 4, arbitrary: mapping(2) }, sequence(2)),
    fc.option(fc.tuple(fc.nat(12), noise), { freq: 4 }),
  )
  .map(([root, extra]) => {
    const lines = root(0).lines;
    if (extra) lines.splice(extra[0] % (lines.length + 1), 0, extra[1]);
    return lines.join('\n');
  });
const file = fc
  .tuple(
    fc.array(doc, { minLength: 1, maxLength: 3 }),
    fc.constantFrom('\n---\n', '\n---\n\n', '\n---\n# c\n'),
    fc.constantFrom('', '---\n', '# head\n---\n'),
    fc.constantFrom('', '\n', '\n---\n', '\n\n'),
  )
  .map(([docs, sep, lead, tail]) => lead + docs.join(sep) + tail);

describe('the plain YAML path', () => {
  it('gives the data the yaml library gives, where that library reports nothing, or declines', () => {
    let taken = 0;
    const runs = Number(process.env.PLAIN_PATH_RUNS ?? 4000);
    fc.assert(
      fc.property(file, (text) => {
        const plain = plainDocuments(text, 64);
        if (plain === undefined) return;
        taken++;
        const reference = slow(text);
        expect(reference, text).toBeDefined();
        expect(present(plain), text).toEqual(present(reference!));
      }),
      { numRuns: runs },
    );
    expect(taken).toBeGreaterThan(runs / 10); // taken, not declined wholesale
  });

  it('takes no source the nesting pre-scan would refuse, at any bound', () => {
    fc.assert(
      fc.property(file, fc.integer({ min: 1, max: 6 }), (text, maxDepth) => {
        if (plainDocuments(text, maxDepth) === undefined) return;
        expect(tooDeepAt(text, maxDepth), `${maxDepth}: ${text}`).toBeUndefined();
      }),
      { numRuns: Number(process.env.PLAIN_PATH_RUNS ?? 4000) },
    );
    expect(plainDocuments('a:\n  b:\n    c: 1', 3)).toBeUndefined();
    expect(plainDocuments('a:\n  b:\n    c: 1', 4)).toBeDefined();
    expect(plainDocuments('a: [[[1]]]', 2)).toBeUndefined();
    expect(plainDocuments('a: x[', 64)).toBeUndefined();
  });

  it('declines what only the other paths may judge', () => {
    for (const text of [
      'a: 1\na: 2',
      'a: &x 1\nb: *x',
      'a: !custom 1',
      '%YAML 1.2\n---\na: 1',
      '? a\n: 1',
      ['a: $', '{HOME}'].join(''),
      'a:\n\t- 1',
      'a: 1\r\n',
      'a: é',
      '<<: {a: 1}',
      'a: [1',
      'a: "x\\ty"',
      'a: |\n  text',
      'a: text\n  more',
      'a:\n  - 1\n -2',
      'a: 1\n---\n---\nb: 2',
      'a: 1\n...\n',
      `${'k'.repeat(1100)}: 1`,
    ]) {
      expect(plainDocuments(text, 64), text).toBeUndefined();
    }
    expect(plainDocuments('a: 0o17\nb: 1_000\nc: .5\nd: yes\ne: ~\nf: "1"', 64)).toEqual([
      { a: 15, b: '1_000', c: 0.5, d: 'yes', e: null, f: '1' },
    ]);
  });

  it('reads every fixture and example as the yaml library does, where it takes them', () => {
    const files: string[] = [];
    const walk = (dir: string) => {
      for (const name of readdirSync(dir)) {
        const path = join(dir, name);
        if (statSync(path).isDirectory()) walk(path);
        else if (/\.ya?ml$/.test(name)) files.push(path);
      }
    };
    walk('test/manifests/fixtures');
    walk('examples');
    let taken = 0;
    for (const path of files) {
      const text = readFileSync(path, 'utf8');
      const plain = plainDocuments(text, 64);
      if (plain === undefined) continue;
      taken++;
      const reference = slow(text);
      expect(reference, path).toBeDefined();
      expect(present(plain), path).toEqual(present(reference!));
    }
    expect(taken).toBeGreaterThan(files.length / 3);
  });
});
