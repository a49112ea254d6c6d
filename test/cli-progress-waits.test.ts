import { readFileSync } from 'node:fs';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { progressPrinter } from '../src/cli/progress.js';
import { DEFAULT_TRANSITION_SECONDS } from '../src/emulator/index.js';
import { TYPICAL_WAIT_SECONDS } from '../src/model/typical-waits.js';
import { act } from './reconcile/helpers.js';

// Issue 24, item 5: a five-minute instance printed "waiting ... provisioning" every 6 s (50 lines)
// and never said how long it usually takes. Off a terminal: one line per resource per 30 s, with
// its elapsed and expected time; on a terminal: one live line. Time is the injected clock's.

function capture() {
  const out = new PassThrough();
  let text = '';
  out.on('data', (d: Buffer) => {
    text += d.toString();
  });
  return { out, text: () => text };
}

const gpu = act('ComputeInstance/p/ws/gpu#create', [], 'create');
const vpc = act('Service/p/vpc#publish', [], 'publish');

/**
 * An apply of one instance that provisions for five minutes, polled every 6 s as the engine
 * does, on a clock the test moves: 50 progress events.
 */
function provisionFiveMinutes(tty: boolean) {
  const sink = capture();
  let now = 0;
  const p = progressPrinter(sink.out, { now: () => now, tty, timers: false });
  p.begin(1);
  p({ type: 'start', action: gpu });
  for (let s = 0; s <= 300; s += 6) {
    now = s * 1000;
    p({
      type: 'progress',
      action: gpu,
      message: `waiting for compute instance p/ws/gpu: ${s === 0 ? 'created' : 'provisioning'}, ${s}s`,
      elapsedMs: now,
      expectedMs: 300_000,
    });
    if (tty && s === 90) p.tick();
  }
  const live = sink.text();
  now = 306_000;
  p({ type: 'finish', action: gpu, outcome: { status: 'succeeded', elapsedMs: now } });
  p.end();
  return { text: sink.text(), live };
}

describe('progress on long waits', () => {
  it('off a terminal prints one line per resource per 30 s, each with elapsed and expected time', () => {
    const { text } = provisionFiveMinutes(false);
    const waits = text.split('\n').filter((l) => l.startsWith('ComputeInstance/p/ws/gpu: waiting'));
    // the first look, the state change to provisioning, then one every 30 s: not 50
    expect(waits.length).toBeGreaterThanOrEqual(10);
    expect(waits.length).toBeLessThanOrEqual(13);
    for (const line of waits) {
      expect(line).toMatch(/\[\d+(m\d\ds|s) elapsed, typically 5m00s\]$/);
      expect(line).not.toMatch(/, \d+s \[/); // the elapsed time once, not twice
    }
    expect(waits).toContain(
      'ComputeInstance/p/ws/gpu: waiting for compute instance p/ws/gpu: provisioning [1m36s elapsed, typically 5m00s]',
    );
    // the overall line no more often than once a minute (and the last one)
    const overall = text.split('\n').filter((l) => /^\d+ of 1 done/.test(l));
    expect(overall.length).toBeLessThanOrEqual(6);
  });

  it('on a terminal keeps the wait on the live line, with its elapsed and expected time', () => {
    const { text, live } = provisionFiveMinutes(true);
    const lines = text.split('\n').filter((l) => l.includes('waiting for compute instance'));
    // no line of its own: every mention is a redraw of the live line (after \r ESC[K)
    expect(live).toContain(
      'waiting for compute instance p/ws/gpu: provisioning, 1m30s (typically 5m00s)',
    );
    for (const l of lines) expect(l).not.toMatch(/^ComputeInstance\/p\/ws\/gpu: waiting/);
    expect(text).toContain('\r\u001b[K');
  });

  it('says no expected time for a wait the platform gives none for', () => {
    const sink = capture();
    const p = progressPrinter(sink.out, { now: () => 40_000, timers: false });
    p({
      type: 'progress',
      action: vpc,
      message: 'waiting for power on of compute instance p/ws/gpu: provisioning, 40s',
      elapsedMs: 40_000,
    });
    expect(sink.text()).toBe(
      'Service/p/vpc: waiting for power on of compute instance p/ws/gpu: provisioning [40s elapsed]\n',
    );
  });

  it("the typical durations are the emulator's realistic defaults and docs/api-assumptions.md's", () => {
    expect(TYPICAL_WAIT_SECONDS).toEqual(DEFAULT_TRANSITION_SECONDS);
    const doc = readFileSync(new URL('../docs/api-assumptions.md', import.meta.url), 'utf8');
    for (const [name, seconds] of Object.entries(TYPICAL_WAIT_SECONDS)) {
      expect(doc).toMatch(new RegExp(`\\| \`${name}\` \\|[^\\n]*\\| ${seconds} s \\|`));
    }
  });
});
