import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { confirmQuestion } from '../src/cli/engine-run.js';
import { progressPrinter } from '../src/cli/progress.js';
import { renderOutcomesText } from '../src/reconcile/render/text.js';
import { act, planOf } from './reconcile/helpers.js';

function capture() {
  const out = new PassThrough();
  let text = '';
  out.on('data', (d: Buffer) => {
    text += d.toString();
  });
  return { out, text: () => text };
}

const a = act('Service/p/vpc#create', [], 'create');
const b = act('Service/p/vpc#publish', ['Service/p/vpc#create'], 'publish');
const c = act('Workspace/p/ws#create', [], 'create');

describe('apply progress', () => {
  it('keeps one overall line: n of N done, running, waiting, elapsed', () => {
    const sink = capture();
    let now = 0;
    const p = progressPrinter(sink.out, { now: () => now });
    p.begin(3);
    p({ type: 'start', action: a });
    p({ type: 'start', action: c });
    p({
      type: 'progress',
      action: c,
      message: 'waiting for workspace p/ws: creating, 5s',
      elapsedMs: 5000,
    });
    now = 65_000;
    p({ type: 'finish', action: a, outcome: { status: 'succeeded', elapsedMs: 65_000 } });
    p.end();
    expect(sink.text()).toContain(
      '1 of 3 done, 1 running, 1 waiting, 1m05s elapsed; waiting for workspace p/ws: creating\n',
    );
  });

  it('says the elapsed time of a wait once', () => {
    const sink = capture();
    const p = progressPrinter(sink.out, { now: () => 0 });
    p({
      type: 'progress',
      action: b,
      message: 'waiting for VPC service p/vpc: deploying, 40s',
      elapsedMs: 40_000,
    });
    const line = sink.text().trim();
    expect(line).toContain('40s');
    expect(line.match(/40s/g)).toHaveLength(1);
  });

  it('ends the summary with the total duration', () => {
    const text = renderOutcomesText(
      { [a.id]: { status: 'succeeded', elapsedMs: 3 } },
      undefined,
      754_000,
    );
    expect(text.split('\n')[0]).toBe(
      'Apply: 1 succeeded, 0 failed, 0 skipped, 0 not started, in 12m34s.',
    );
  });

  it('asks for confirmation with the counts of the plan', () => {
    const del = act('Workspace/p/old#delete', [], 'delete');
    expect(confirmQuestion(planOf([a, b, c, del]))).toBe(
      'Apply 2 to create, 0 to update, 1 to delete? Only "yes" is accepted: ',
    );
  });
});
