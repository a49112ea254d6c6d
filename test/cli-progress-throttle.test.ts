import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { progressPrinter } from '../src/cli/progress.js';
import { act } from './reconcile/helpers.js';

function capture() {
  const out = new PassThrough();
  let text = '';
  out.on('data', (d: Buffer) => {
    text += d.toString();
  });
  return { out, text: () => text };
}

const ws = (i: number) => act(`Workspace/p/ws-${i}#create`, [], 'create');

afterEach(() => {
  vi.useRealTimers();
});

/** Starts and finishes `n` workspace creates, the last one failing. */
function applyOf(p: ReturnType<typeof progressPrinter>, n: number) {
  p.begin(n);
  for (let i = 0; i < n; i++) {
    p({ type: 'start', action: ws(i) });
    p({
      type: 'finish',
      action: ws(i),
      outcome:
        i === n - 1
          ? { status: 'failed', elapsedMs: 3, error: 'the platform said no', code: 'api' }
          : { status: 'succeeded', elapsedMs: 3 },
    });
  }
  p.end();
}

describe('apply progress, throttled', () => {
  it('off a terminal prints no line per action, only failures and the overall line', () => {
    const sink = capture();
    applyOf(progressPrinter(sink.out, { now: () => 0 }), 1000);
    const lines = sink.text().trim().split('\n');
    expect(lines).toEqual([
      expect.stringContaining('Workspace/p/ws-999: create failed'),
      '1000 of 1000 done, 0 running, 0 waiting, 0s elapsed',
    ]);
    expect(lines[0]).toContain('failed: the platform said no');
  });

  it('prints every start and finish with --verbose', () => {
    const sink = capture();
    applyOf(progressPrinter(sink.out, { now: () => 0, verbose: true }), 300);
    const text = sink.text();
    expect(text).toContain('Workspace/p/ws-0: create...\n');
    expect(text).toContain('Workspace/p/ws-1: create done');
    expect(text).toContain('Workspace/p/ws-299: create failed: the platform said no');
  });

  it('prints every action of an apply small enough to read', () => {
    const sink = capture();
    applyOf(progressPrinter(sink.out, { now: () => 0 }), 100);
    expect(sink.text()).toContain('Workspace/p/ws-0: create...\n');
    expect(sink.text()).toContain('Workspace/p/ws-98: create done');
  });

  it('off a terminal prints the overall line every minute while actions wait', () => {
    vi.useFakeTimers();
    const sink = capture();
    const p = progressPrinter(sink.out, { now: () => Date.now() });
    p.begin(2);
    p({ type: 'start', action: ws(0) });
    vi.advanceTimersByTime(150_000);
    p.end();
    const overall = sink.text().match(/0 of 2 done, 1 running, 1 waiting/g) ?? [];
    expect(overall).toHaveLength(2);
  });

  it('on a terminal keeps one live line and prints no line per action', () => {
    const sink = capture();
    applyOf(progressPrinter(sink.out, { now: () => 0, tty: true }), 500);
    const text = sink.text();
    expect(text).not.toContain('ws-0');
    expect(text).toContain('Workspace/p/ws-499: create failed');
    expect(text).toContain('\r\u001b[K');
    expect(text).toMatch(/\d+ of 500 done/);
  });
});
