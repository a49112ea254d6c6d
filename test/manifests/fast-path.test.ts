import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isAlias, isMap, isScalar, isSeq, type Node, parseAllDocuments } from 'yaml';
import { fastDocuments } from '../../src/manifests/fast-parse.js';
import { linePos, lineStarts, parseSource } from '../../src/manifests/parse.js';
import type { SourcePosition } from '../../src/model/manifest.js';

/** What the `yaml` library makes of `text`: every document's data, or undefined on any problem. */
function slow(text: string): unknown[] | undefined {
  const docs = parseAllDocuments(text, { prettyErrors: false, uniqueKeys: true });
  if (!Array.isArray(docs)) return [];
  if (docs.some((d) => d.errors.length > 0 || d.warnings.length > 0)) return undefined;
  return docs.map((d) => (d.contents === null ? null : d.toJS({ maxAliasCount: 1000 })));
}

const present = (docs: unknown[]) =>
  docs.flatMap((d, i) => (d === null || d === undefined ? [] : [[i, d]]));

// Plain scalars where YAML 1.1, js-yaml's own core schema and YAML 1.2 disagree, and neighbours.
const TRICKY = [
  ...['1_000', '0b101', '0o17', '0O17', '0x1F', '0X1F', '-0x1F', '+12', '-0', '012', '09', '1e3'],
  ...['1E+3', '.5', '-.5', '5.', '1.10', '+.inf', '-.Inf', '.INF', '.NaN', '.nan', 'NaN', '.Nan'],
  ...['true', 'True', 'TRUE', 'tRUE', 'yes', 'Yes', 'on', 'off', 'y', 'n', 'false', 'FALSE'],
  ...['~', 'null', 'Null', 'NULL', 'nULL', '2024-01-01', '12:30:00', '1:20', '0.1.2', 'v1.29.4'],
  ...['@x', '`x', '%x', '-', '- x', ': x', 'a: b', 'a #c', 'a#c', '"q"', "'q'", '[]', '{}', '|'],
  ...['>', '10.0.0.0/8', 'user@acme.example', '12345678901234567890', '0x', '0o', '.', '+', 'e3'],
];
const scalar = fc.oneof(
  fc.constantFrom(...TRICKY),
  fc.string({ maxLength: 8 }),
  fc.constantFrom(...TRICKY).map((s) => JSON.stringify(s)),
  fc.constantFrom(...TRICKY).map((s) => `'${s.replace(/'/g, "''")}'`),
);
const key = fc.oneof(
  fc.constantFrom('name', '1', 'true', '~', 'null', 'NULL', '', ' ~', '__proto__', 'toString'),
  fc.constantFrom('"~"', '1.10', '.inf', '0x1F', 'a b', '"k"', '[a]', '{a: 1}', '? a'),
  scalar,
);
const flowMap = fc
  .array(fc.tuple(key, scalar), { maxLength: 3 })
  .map((pairs) => `{${pairs.map(([k, v]) => `${k}: ${v}`).join(', ')}}`);
const flow = fc.oneof(
  fc.array(scalar, { maxLength: 3 }).map((xs) => `[${xs.join(', ')}]`),
  flowMap,
);
const line = fc.constantFrom('text', '  more', '', '# no comment', 'a: b', "it's", '- x', ' ');
const multiLine = (indent: string) =>
  fc.oneof(
    fc
      .tuple(fc.constantFrom('|', '>', '|-', '>+', '|2', '>-'), fc.array(line, { maxLength: 3 }))
      .map(([head, ls]) => `${head}\n${ls.map((l) => `${indent}  ${l}`).join('\n')}`),
    fc
      .tuple(fc.constantFrom('"', "'"), fc.array(line, { minLength: 1, maxLength: 3 }))
      .map(([q, ls]) => q + ls.map((l) => l.replaceAll(q, '')).join(`\n${indent}  `) + q),
    fc.tuple(scalar, fc.constantFrom(' # c', '  #c', ' ', '')).map(([v, c]) => v + c),
  );
const block = (indent: string) =>
  fc
    .array(fc.tuple(key, fc.oneof(scalar, flow, multiLine(indent))), { minLength: 1, maxLength: 4 })
    .map((pairs) => pairs.map(([k, v]) => `${indent}${k}: ${v}`).join('\n'));
const doc = fc.oneof(
  block(''),
  fc.tuple(key, block('  ')).map(([k, b]) => `${k}:\n${b}`),
  fc.array(scalar, { minLength: 1, maxLength: 3 }).map((xs) => xs.map((x) => `- ${x}`).join('\n')),
  fc.constantFrom('', '# only a comment', '~', '""', '[]'),
);
const file = fc
  .tuple(
    fc.array(doc, { minLength: 1, maxLength: 4 }),
    fc.constantFrom('---\n', '\n---\n', '\n...\n---\n'),
    fc.boolean(),
  )
  .map(([docs, sep, lead]) => (lead ? '---\n' : '') + docs.join(sep));

describe('the loader fast path', () => {
  it('gives the data the yaml library gives, or declines', () => {
    let taken = 0;
    const runs = Number(process.env.FAST_PATH_RUNS ?? 3000);
    fc.assert(
      fc.property(file, (text) => {
        const fast = fastDocuments(text);
        if (fast === undefined) return;
        taken++;
        const reference = slow(text);
        expect(reference, text).toBeDefined();
        expect(present(fast), text).toEqual(present(reference!));
      }),
      { numRuns: runs },
    );
    expect(taken).toBeGreaterThan(runs / 10); // the fast path is taken, not declined wholesale
  });

  it('declines what only the yaml library may judge', () => {
    for (const text of [
      'a: 1\na: 2',
      'a: &x 1\nb: *x',
      'a: !custom 1',
      '%YAML 1.1\n---\na: yes',
      '? [a]\n: 1',
      ['a: $', '{HOME}'].join(''),
      'a:\n\t- 1',
      '<<: {a: 1}',
      'a: [1',
    ]) {
      expect(fastDocuments(text), text).toBeUndefined();
    }
    expect(fastDocuments('a: 0o17\nb: 1_000\nc: .5\nd: yes')).toEqual([
      { a: 15, b: '1_000', c: 0.5, d: 'yes' },
    ]);
  });
});

/** Every position of a document, found the way the loader did before positions became lazy. */
function eagerPositions(text: string, index: number) {
  const starts = lineStarts(text);
  const at = (offset: number): SourcePosition => ({ file: 'f.yaml', ...linePos(starts, offset) });
  const values = new Map<string, SourcePosition>();
  const keys = new Map<string, SourcePosition>();
  const ptr = (path: readonly (string | number)[]) => path.join('\u0000');
  const walk = (node: Node | null, path: (string | number)[]): void => {
    if (!node || isAlias(node)) return;
    if (node.range) values.set(ptr(path), at(node.range[0]));
    if (isMap(node)) {
      for (const pair of node.items) {
        const k = pair.key as Node | null;
        const child = [...path, isScalar(k) ? String(k.value) : String(k)];
        if (k?.range) keys.set(ptr(child), at(k.range[0]));
        walk(pair.value as Node | null, child);
      }
    } else if (isSeq(node)) {
      node.items.forEach((item, i) => {
        walk(item as Node | null, [...path, i]);
      });
    }
  };
  const contents = parseAllDocuments(text)[index]!.contents;
  walk(contents, []);
  const source = at(contents?.range?.[0] ?? 0);
  const positionOf = (path: readonly (string | number)[]) => {
    for (let n = path.length; n >= 0; n--) {
      const p = values.get(ptr(path.slice(0, n)));
      if (p) return p;
    }
    return source;
  };
  return {
    source,
    positionOf,
    keyPositionOf: (path: readonly (string | number)[]) => keys.get(ptr(path)) ?? positionOf(path),
  };
}

describe('lazy positions', () => {
  const plain = [
    'apiVersion: v1\nkind: Workspace\nmetadata: {name: a, project: p}',
    '# lead\nkind: ComputeInstance\nspec:\n  variables:\n    - {name: x, value: "1"}\n    - name: y\n      value: [1, 2]\n  empty:\n',
  ].join('\n---\n');
  const aliased = `${plain}  alias: &a {k: v}\n  again: *a\n`;
  const paths = fc.array(
    fc.oneof(
      fc.constantFrom('kind', 'metadata', 'name', 'spec', 'variables', 'value', 'empty', 'again'),
      fc.constantFrom('k', 'project', 'nope', '0', '1'),
      fc.nat(3),
    ),
    { maxLength: 5 },
  );

  it.each([
    ['fast', plain],
    ['yaml library', aliased],
  ])('are the positions the eager index gave, for any path (%s path)', (_path, text) => {
    const { docs } = parseSource({ file: 'f.yaml', text }, () => undefined, {
      maxAliasCount: 1000,
      maxDepth: 64,
    });
    expect(docs).toHaveLength(2);
    for (const doc of docs) {
      const eager = eagerPositions(text, doc.index);
      expect(doc.source).toEqual(eager.source);
      fc.assert(
        fc.property(paths, (path) => {
          expect(doc.positionOf(path)).toEqual(eager.positionOf(path));
          expect(doc.keyPositionOf(path)).toEqual(eager.keyPositionOf(path));
        }),
      );
    }
  });
});
