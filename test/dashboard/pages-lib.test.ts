import { describe, expect, it } from 'vitest';
import {
  absoluteTime,
  barOf,
  collapseRevisions,
  diffWords,
  fieldName,
  sourceLink,
  writtenLines,
} from '../../web/src/lib/pages.js';
import { marked, yamlLines } from '../../web/src/lib/yaml.js';

const SHA = 'a'.repeat(40);

describe('the resource page, pure', () => {
  it('words a field of the diff as the platform against git', () => {
    expect(diffWords({ op: 'replace', desired: 'on', live: 'off' })).toBe(
      'platform has off, git says on',
    );
    expect(diffWords({ op: 'add', desired: 3 })).toBe('platform has nothing, git says 3');
    expect(diffWords({ op: 'remove', live: { a: 1 } })).toBe(
      'platform has {"a":1}, git says nothing',
    );
    expect(fieldName('/spec/variables/H100 Worker Nodes/value')).toBe(
      'spec.variables.H100 Worker Nodes.value',
    );
    expect(fieldName('/metadata/labels/a~1b')).toBe('metadata.labels.a/b');
  });

  it('writes the live document as YAML, each line knowing its field, arrays by index and name', () => {
    const lines = yamlLines({
      metadata: { name: 'vm-1', labels: {} },
      spec: { count: 2, on: 'yes', variables: [{ name: 'gpus', value: '2' }] },
    });
    expect(lines.map((l) => l.text)).toEqual([
      'metadata:',
      '  name: vm-1',
      '  labels: {}',
      'spec:',
      '  count: 2',
      '  "on": "yes"',
      '  variables:',
      '    - name: gpus',
      '      value: "2"',
    ]);
    const value = lines.find((l) => l.text.includes('value'))!;
    expect(value.paths).toEqual(['/spec/variables/0/value', '/spec/variables/gpus/value']);
    expect(marked(value.paths, ['/spec/variables/gpus/value'])).toBe(true);
    expect(marked(value.paths, ['/spec/variables'])).toBe(true);
    expect(marked(lines[1]!.paths, ['/spec'])).toBe(false);
  });

  it('marks the changed lines of the document as written, by its keys', () => {
    const yaml = [
      'kind: Workspace',
      'metadata:',
      '  name: ws-a',
      '  description: one',
      'spec:',
      '  description: not this one',
    ].join('\n');
    expect([...writtenLines(yaml, ['/metadata/description'])]).toEqual([3]);
    expect([...writtenLines(yaml, ['/spec'])]).toEqual([4, 5]);
    expect([...writtenLines(yaml, ['/nowhere'])]).toEqual([]);
  });

  it('links a file:line into the forge where the repository has a web view', () => {
    const github = { repo: 'https://github.com/acme/platform.git', path: 'platform/' };
    expect(sourceLink(github, SHA, 'gpu/a.yaml', 7)).toBe(
      `https://github.com/acme/platform/blob/${SHA}/platform/gpu/a.yaml#L7`,
    );
    expect(sourceLink({ repo: 'https://gitlab.example.com/g/p' }, SHA, 'a.yaml', 1)).toBe(
      `https://gitlab.example.com/g/p/-/blob/${SHA}/a.yaml#L1`,
    );
    expect(sourceLink({ repo: '/srv/git/platform.git' }, SHA, 'a.yaml', 1)).toBeUndefined();
    expect(sourceLink({ repo: 'git@github.com:acme/p.git' }, SHA, 'a.yaml', 1)).toBeUndefined();
    expect(sourceLink(github, undefined, 'a.yaml', 1)).toBeUndefined();
  });
});

describe('times, revisions and runs, pure', () => {
  it('shows one absolute form, in UTC', () => {
    expect(absoluteTime('2026-11-23T10:00:00.123Z')).toBe('2026-11-23 10:00:00 UTC');
    expect(absoluteTime('2026-11-23T11:00:00+01:00')).toBe('2026-11-23 10:00:00 UTC');
    expect(absoluteTime('soon')).toBe('soon');
    expect(absoluteTime(undefined)).toBe('');
  });

  it('collapses the revisions that are one commit into one row naming them all', () => {
    const same = { revision: SHA, message: 'm' };
    const groups = collapseRevisions([
      ['Fetched', same],
      ['Last good', same],
      ['Last applied', { revision: 'b'.repeat(40) }],
      ['Last attempted', same],
    ]);
    expect(groups.map((g) => g.labels)).toEqual([
      ['Fetched', 'Last good', 'Last attempted'],
      ['Last applied'],
    ]);
    expect(
      collapseRevisions([
        ['Fetched', undefined],
        ['Last good', undefined],
      ]),
    ).toEqual([{ labels: ['Fetched', 'Last good'] }]);
  });

  it("places each action on its run's timeline", () => {
    const run = { startedAt: '2026-11-23T10:00:00Z', durationMs: 10_000 };
    expect(barOf(run, { startedAt: '2026-11-23T10:00:02Z', durationMs: 5_000 })).toEqual({
      offset: 20,
      width: 50,
    });
    expect(barOf(run, {})).toBeUndefined();
    const late = barOf(run, { startedAt: '2026-11-23T10:00:20Z', durationMs: 1 });
    expect(late?.offset).toBe(100);
    expect(barOf(run, { startedAt: '2026-11-23T10:00:00Z', durationMs: 0 })?.width).toBe(0.5);
  });
});
