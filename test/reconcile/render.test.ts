import { describe, expect, it } from 'vitest';
import { renderPlanJson } from '../../src/reconcile/render/json.js';
import { renderPlanMarkdown } from '../../src/reconcile/render/markdown.js';
import { colors, renderOutcomesText, renderPlanText } from '../../src/reconcile/render/text.js';
import { act, planOf } from './helpers.js';

const update = act('Workspace/p/ws#update', [], 'update', {
  changes: [
    { op: 'replace', path: '/metadata/displayName', before: 'A', after: 'B' },
    { op: 'replace', path: '/spec/password', before: 'old-secret', after: 'new-secret' },
  ],
});
const del = act('Workspace/p/old#delete', [], 'delete', {
  reason: { code: 'removed-from-git', message: 'no longer declared' },
});
const noop = act('Workspace/p/same#noop', [], 'noop');

describe('plan rendering', () => {
  it('prints the summary line, each change with its reason, and masks secrets', () => {
    const text = renderPlanText(planOf([update, del, noop]));
    expect(text.split('\n')[0]).toBe('Plan: 0 to create, 1 to update, 1 to delete, 1 unchanged.');
    expect(text).toContain('~ /metadata/displayName: "A" -> "B"');
    expect(text).toContain('removed-from-git: no longer declared');
    expect(text).not.toMatch(/old-secret|new-secret/);
    expect(text).not.toContain('Workspace/p/same');
  });

  it('says "No changes." when there is nothing to do', () => {
    expect(renderPlanText(planOf([noop]))).toBe('No changes. 1 resource in sync.\n');
  });

  it('uses no escape codes when colors are off', () => {
    expect(renderPlanText(planOf([update]), colors(false))).not.toContain('\u001b[');
  });

  it('calls deletions out in markdown and stays under the limit with a note', () => {
    const many = Array.from({ length: 400 }, (_, i) =>
      act(`Workspace/p/w${i}#update`, [], 'update', {
        changes: [
          {
            op: 'replace',
            path: '/metadata/description',
            before: 'x'.repeat(100),
            after: 'y'.repeat(100),
          },
        ],
      }),
    );
    const md = renderPlanMarkdown(planOf([del, ...many]), 20_000);
    expect(
      md.startsWith('### platctl plan\n\n**Plan: 0 to create, 400 to update, 1 to delete'),
    ).toBe(true);
    expect(md).toContain('will be **deleted**');
    expect(md.length).toBeLessThanOrEqual(20_000);
    expect(md).toMatch(/Output cut: \d+ more resource\(s\) not shown/);
    expect(md.split('<details>').length - 1).toBeGreaterThan(10);
  });

  it('writes the documented JSON form with masked secrets and outcomes', () => {
    const doc = JSON.parse(
      renderPlanJson(planOf([update]), { [update.id]: { status: 'succeeded', elapsedMs: 3 } }),
    );
    expect(Object.keys(doc)).toEqual([
      'formatVersion',
      'summary',
      'actions',
      'diagnostics',
      'outcomes',
    ]);
    expect(JSON.stringify(doc)).not.toMatch(/old-secret|new-secret/);
  });

  it('names each failure once, at its root, with what it skipped', () => {
    const text = renderOutcomesText({
      'A/a#update': {
        status: 'failed',
        elapsedMs: 1,
        error: '409 updating A/a: conflict',
        code: 'api',
      },
      'B/b#update': { status: 'skipped', because: 'A/a#update' },
      'C/c#update': { status: 'skipped', because: 'A/a#update' },
      'D/d#noop': { status: 'succeeded', elapsedMs: 0 },
    });
    expect(text).toBe(
      'Apply: 0 succeeded, 1 failed, 2 skipped, 0 not started.\nfailed: A/a#update: 409 updating A/a: conflict (2 dependent actions skipped)\n',
    );
  });
});
