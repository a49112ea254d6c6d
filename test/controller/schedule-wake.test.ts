import { describe, expect, it } from 'vitest';
import { wakeForSchedules } from '../../src/controller/loop/schedule-wake.js';
import type { Plan, ScheduledPower } from '../../src/model/plan.js';

const NOW = Date.parse('2026-11-25T10:00:00Z');
const entry = (at: string): ScheduledPower => ({
  key: 'ComputeInstance/p/w/box',
  schedule: 'PowerSchedule/s',
  timeZone: 'UTC',
  state: 'on',
  why: 'period',
  next: [{ at, local: at, state: 'off' }],
  offHoursPerMonth: 0,
});
const plan = (...schedules: ScheduledPower[]): Plan => ({
  formatVersion: 1,
  actions: [],
  diagnostics: [],
  schedules,
});
const step = { result: 'succeeded' as const, requeueAfterMs: 3_600_000 };

describe('wakeForSchedules', () => {
  it('wakes a second past the soonest transition when it comes before the interval', () => {
    const p = plan(entry('2026-11-25T10:30:00.000Z'), entry('2026-11-25T10:10:00.000Z'));
    expect(wakeForSchedules(step, p, NOW).requeueAfterMs).toBe(10 * 60_000 + 1000);
  });

  it('keeps the interval (and a backoff) when no transition comes sooner', () => {
    expect(wakeForSchedules(step, plan(entry('2026-11-25T12:00:00.000Z')), NOW)).toBe(step);
    expect(wakeForSchedules(step, plan(), NOW)).toBe(step);
    expect(wakeForSchedules(step, undefined, NOW)).toBe(step);
  });
});
