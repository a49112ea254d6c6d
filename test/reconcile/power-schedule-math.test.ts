import { describe, expect, it } from 'vitest';
import type { PowerPeriod, Weekday } from '../../src/model/governance-kinds.js';
import type { Manifest } from '../../src/model/manifest.js';
import { decidePower, offShare, selects, weeklyRanges } from '../../src/model/power-schedule.js';
import { instantOf, isTimeZone, zonedText } from '../../src/model/zoned-time.js';

const at = (iso: string) => Date.parse(iso);
const iso = (ms: number) => new Date(ms).toISOString();
const WEEKDAYS: Weekday[] = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri'];
const spec = (timeZone: string, ...periods: PowerPeriod[]) => ({
  timeZone,
  periods,
  selector: { projects: ['p'] },
});
const transitions = (d: ReturnType<typeof decidePower>) =>
  d.next.map((t) => `${t.state} ${iso(t.at)}`);

describe('local time to instant (Temporal "compatible")', () => {
  it('maps a skipped local time forward by the gap and a repeated one to its earlier instant', () => {
    // Berlin skips 02:00–03:00 on 2026-03-29: 02:30 is 03:30 CEST
    expect(iso(instantOf(at('2026-03-29T02:30Z'), 'Europe/Berlin'))).toBe(
      '2026-03-29T01:30:00.000Z',
    );
    // Berlin repeats 02:00–03:00 on 2026-10-25: 02:30 CEST first
    expect(iso(instantOf(at('2026-10-25T02:30Z'), 'Europe/Berlin'))).toBe(
      '2026-10-25T00:30:00.000Z',
    );
    // New York skips 02:00–03:00 on 2026-03-08 and repeats 01:00–02:00 on 2026-11-01
    expect(iso(instantOf(at('2026-03-08T02:30Z'), 'America/New_York'))).toBe(
      '2026-03-08T07:30:00.000Z',
    );
    expect(iso(instantOf(at('2026-11-01T01:30Z'), 'America/New_York'))).toBe(
      '2026-11-01T05:30:00.000Z',
    );
    expect(zonedText(at('2026-11-01T06:30Z'), 'America/New_York')).toBe('2026-11-01T01:30-05:00');
  });

  it('knows IANA zones and refuses others', () => {
    expect(isTimeZone('Europe/Berlin')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('Europe/Atlantis')).toBe(false);
  });
});

describe('decidePower', () => {
  const office = spec('Europe/Berlin', { days: WEEKDAYS, start: '08:00', stop: '20:00' });

  it('is on inside a period and off outside, with the next transitions', () => {
    const d = decidePower(office, at('2026-11-25T10:00Z'));
    expect(d).toMatchObject({ state: 'on', why: 'period' });
    expect(transitions(d)).toEqual(['off 2026-11-25T19:00:00.000Z', 'on 2026-11-26T07:00:00.000Z']);
    expect(decidePower(office, at('2026-11-25T19:00Z')).state).toBe('off'); // [start, stop)
    expect(decidePower(office, at('2026-11-25T07:00Z')).state).toBe('on');
  });

  it('crosses the spring DST weekend in Berlin: Friday CET, Monday CEST', () => {
    const d = decidePower(office, at('2026-03-27T21:00Z'));
    expect(d).toMatchObject({ state: 'off', why: 'outside' });
    expect(transitions(d)).toEqual(['on 2026-03-30T06:00:00.000Z', 'off 2026-03-30T18:00:00.000Z']);
  });

  it('crosses the autumn DST weekend in Berlin', () => {
    const d = decidePower(office, at('2026-10-23T19:30Z'));
    expect(transitions(d)).toEqual(['on 2026-10-26T07:00:00.000Z', 'off 2026-10-26T19:00:00.000Z']);
  });

  it('gives an overnight period across the spring change its 7 real hours', () => {
    const night = spec('Europe/Berlin', { days: ['Sat'], start: '22:00', stop: '06:00' });
    const d = decidePower(night, at('2026-03-28T12:00Z'));
    expect(transitions(d)).toEqual(['on 2026-03-28T21:00:00.000Z', 'off 2026-03-29T04:00:00.000Z']);
  });

  it('starts a period whose start is skipped after the gap (New York, March)', () => {
    const early = spec('America/New_York', { days: ['Sun'], start: '02:30', stop: '12:00' });
    const d = decidePower(early, at('2026-03-08T00:00Z'));
    expect(transitions(d)).toEqual(['on 2026-03-08T07:30:00.000Z', 'off 2026-03-08T16:00:00.000Z']);
  });

  it('starts a period at the first of a repeated hour (New York, November)', () => {
    const p = spec('America/New_York', { days: ['Sun'], start: '01:30', stop: '03:00' });
    const d = decidePower(p, at('2026-11-01T00:00Z'));
    // 01:30 EDT, then 03:00 EST: two and a half real hours
    expect(transitions(d)).toEqual(['on 2026-11-01T05:30:00.000Z', 'off 2026-11-01T08:00:00.000Z']);
  });

  it('keeps an instance on until its exception, then follows the schedule', () => {
    const now = at('2026-11-25T21:00Z'); // Wednesday 22:00 in Berlin: off
    const d = decidePower(office, now, at('2026-11-25T23:00Z'));
    expect(d).toMatchObject({ state: 'on', why: 'keep-on' });
    expect(transitions(d)).toEqual(['off 2026-11-25T23:00:00.000Z', 'on 2026-11-26T07:00:00.000Z']);
    // an exception inside a period changes nothing; a past one is ignored
    expect(
      transitions(decidePower(office, at('2026-11-25T10:00Z'), at('2026-11-25T12:00Z'))),
    ).toEqual(['off 2026-11-25T19:00:00.000Z', 'on 2026-11-26T07:00:00.000Z']);
    expect(decidePower(office, now, at('2026-11-25T20:00Z')).state).toBe('off');
  });

  it('merges touching periods and has no transition when always on', () => {
    const always = spec(
      'UTC',
      { days: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'], start: '00:00', stop: '12:00' },
      { days: ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'], start: '12:00', stop: '24:00' },
    );
    expect(decidePower(always, at('2026-11-25T10:00Z'))).toEqual({
      state: 'on',
      why: 'period',
      next: [],
    });
  });
});

describe('offShare and weeklyRanges', () => {
  it('counts the share of a week a schedule keeps instances off', () => {
    const weekdays = spec('UTC', { days: WEEKDAYS, start: '00:00', stop: '24:00' });
    expect(offShare(weekdays, at('2026-11-25T10:00Z'))).toBeCloseTo(2 / 7);
    const office = spec('Europe/Berlin', { days: WEEKDAYS, start: '08:00', stop: '20:00' });
    expect(offShare(office, at('2026-11-25T10:00Z'))).toBeCloseTo(1 - 60 / 168);
  });

  it('wraps an overnight Sunday period to Monday', () => {
    expect(weeklyRanges({ days: ['Sun'], start: '22:00', stop: '02:00' })).toEqual([
      [6 * 1440 + 22 * 60, 7 * 1440],
      [0, 120],
    ]);
  });
});

describe('selects', () => {
  const box = {
    apiVersion: 'paas.envmgmt.io/v1',
    kind: 'ComputeInstance',
    metadata: { name: 'gpu-train-1', project: 'ml', workspace: 'train', labels: { team: 'ml' } },
    spec: { computeType: 'baremetal', computeProfile: { name: 'bmaas-h100' }, variables: [] },
  } as const satisfies Manifest;

  it('selects a ComputeInstance meeting every criterion given', () => {
    expect(selects({ labels: { team: 'ml' } }, box)).toBe(true);
    expect(selects({ labels: { team: 'ml', tier: 'x' } }, box)).toBe(false);
    expect(selects({ names: ['cpu-*', 'gpu-*-1'] }, box)).toBe(true);
    expect(selects({ names: ['gpu-train'] }, box)).toBe(false);
    expect(selects({ names: ['gpu.train-1'] }, box)).toBe(false); // a dot is a dot
    expect(selects({ workspaces: ['train'], projects: ['ml'] }, box)).toBe(true);
    expect(selects({ workspaces: ['train'], projects: ['other'] }, box)).toBe(false);
    const ws = { apiVersion: 'v1', kind: 'Workspace', metadata: { name: 'gpu-1', project: 'ml' } };
    expect(selects({ projects: ['ml'] }, ws as Manifest)).toBe(false);
  });
});
