import { describe, expect, it } from 'vitest';
import { displayPath, managedBody, threeWayDiff } from '../../src/providers/support/diff.js';
import { workspace } from './fixtures.js';

describe('threeWayDiff', () => {
  const spec = (vars: [string, string][]) => ({
    spec: { variables: vars.map(([name, value]) => ({ name, value })) },
  });

  it('compares variables by name, not position', () => {
    expect(
      threeWayDiff(
        spec([
          ['a', '1'],
          ['b', '2'],
        ]),
        spec([
          ['b', '2'],
          ['a', '1'],
        ]),
      ),
    ).toBeUndefined();
    expect(threeWayDiff(spec([['a', '1']]), spec([['a', '2']]))?.changes).toEqual([
      { op: 'replace', path: '/spec/variables/a/value', before: '2', after: '1' },
    ]);
  });

  it('removes a variable dropped from git only if it was last applied', () => {
    const live = spec([
      ['a', '1'],
      ['server-default', 'x'],
      ['old', 'y'],
    ]);
    const diff = threeWayDiff(
      spec([['a', '1']]),
      live,
      spec([
        ['a', '1'],
        ['old', 'y'],
      ]),
    );
    expect(diff?.changes).toEqual([
      { op: 'remove', path: '/spec/variables/old', before: { value: 'y' } },
    ]);
    expect(diff?.code).toBe('changed');
  });

  it('calls a platform-side change drift when git still says what was last applied', () => {
    expect(threeWayDiff(spec([['a', '1']]), spec([['a', '9']]), spec([['a', '1']]))).toMatchObject({
      code: 'drift',
      message: 'spec.variables[a].value: platform has 9, git says 1',
    });
  });

  it('masks secret-named fields', () => {
    const diff = threeWayDiff(
      { spec: { password: 'new-pw', nested: { apiKey: 'k2' } } },
      { spec: { password: 'old-pw', nested: { apiKey: 'k1' } } },
    );
    expect(JSON.stringify(diff)).not.toMatch(/new-pw|old-pw|k1|k2/);
  });

  it('never mutates its inputs, and strips platctl-only metadata from bodies', () => {
    const desired = Object.freeze(spec([['a', '1']]));
    const before = JSON.stringify(desired);
    threeWayDiff(desired, spec([['a', '2']]), spec([['a', '3']]));
    expect(JSON.stringify(desired)).toBe(before);
    const m = workspace();
    expect(managedBody(m).metadata).toEqual({ name: 'dev', project: 'ml' });
    expect(m.metadata.dependsOn).toHaveLength(1);
  });

  it('shows paths for people', () => {
    expect(displayPath('/spec/variables/Contract Term/value')).toBe(
      'spec.variables[Contract Term].value',
    );
    expect(displayPath('/spec/config/nodePools/0/size')).toBe('spec.config.nodePools[0].size');
  });
});
