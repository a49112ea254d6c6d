import { describe, expect, it } from 'vitest';
import {
  dayTotal,
  dayWindows,
  monthStart,
  priced,
} from '../../src/controller/http/dashboard/usage-cost.js';
import {
  money,
  monthSoFar,
  rangeWindow,
  usageGroups,
  usageTotals,
} from '../../web/src/lib/cost.js';

const items = [
  { project: 'ml', profile: 'bmaas-h100', instance: 'a', hours: 10, gpuHours: 80, cost: 983.2 },
  { project: 'ml', profile: 'bmaas-l40s', instance: 'b', hours: 5, gpuHours: 40 },
  { project: 'web', profile: 'bmaas-h100', instance: 'a', hours: 1, gpuHours: 8, cost: 98.32 },
];

describe('usage and cost, summed', () => {
  it('groups by project, profile or instance, the costliest first', () => {
    expect(usageGroups(items, 'project')).toEqual([
      { key: 'ml', hours: 15, gpuHours: 120, cost: 983.2, lines: 2 },
      { key: 'web', hours: 1, gpuHours: 8, cost: 98.32, lines: 1 },
    ]);
    expect(usageGroups(items, 'profile').map((g) => g.key)).toEqual(['bmaas-h100', 'bmaas-l40s']);
    expect(usageGroups(items, 'profile')[1]).not.toHaveProperty('cost');
    // same-named instances of two projects stay apart
    expect(usageGroups(items, 'instance').map((g) => g.key)).toEqual(['ml/a', 'web/a', 'ml/b']);
    expect(usageTotals(items)).toEqual({ hours: 16, gpuHours: 128, cost: 1081.52, lines: 3 });
    expect(usageTotals([])).toEqual({ hours: 0, gpuHours: 0, lines: 0 });
    expect(money(1081.52, 'USD')).toBe('1,081.52 USD');
    expect(money(undefined, 'USD')).toBe('—');
  });

  it('turns dates into whole UTC days, and a month so far', () => {
    expect(rangeWindow('2026-11-03', '2026-11-04')).toEqual({
      from: '2026-11-03T00:00:00.000Z',
      to: '2026-11-05T00:00:00.000Z',
    });
    expect(monthSoFar(Date.parse('2026-11-25T10:00:00Z'))).toEqual({
      from: '2026-11-01',
      to: '2026-11-25',
    });
  });
});

describe('the usage route, priced and per day', () => {
  it('prices lines of priced profiles, with GPUs', () => {
    const prices = { currency: 'EUR', profiles: { 'bmaas-h100': { hourly: 98.32 } } };
    const [h100, l40s] = priced(
      [
        { project: 'ml', profile: 'bmaas-h100', hours: 1.5 },
        { project: 'ml', profile: 'bmaas-l40s', hours: 2 },
      ],
      prices,
    );
    expect(h100).toEqual({
      project: 'ml',
      profile: 'bmaas-h100',
      hours: 1.5,
      cost: 147.48,
      gpus: 8,
    });
    expect(l40s).not.toHaveProperty('cost');
    expect(dayTotal('2026-11-03', [h100!, l40s!])).toEqual({
      day: '2026-11-03',
      hours: 3.5,
      gpuHours: 0,
      cost: 147.48,
    });
  });

  it('cuts a range into UTC days, the ends cut to the range, at most 62', () => {
    expect(dayWindows('2026-11-03T12:00:00Z', '2026-11-05T06:00:00Z')).toEqual([
      { from: '2026-11-03T12:00:00.000Z', to: '2026-11-04T00:00:00.000Z' },
      { from: '2026-11-04T00:00:00.000Z', to: '2026-11-05T00:00:00.000Z' },
      { from: '2026-11-05T00:00:00.000Z', to: '2026-11-05T06:00:00.000Z' },
    ]);
    const year = dayWindows('2026-01-01T00:00:00Z', '2026-12-31T00:00:00Z');
    expect(year).toHaveLength(62);
    expect(year.at(-1)?.to).toBe('2026-12-31T00:00:00.000Z');
    expect(monthStart(Date.parse('2026-11-25T10:00:00Z'))).toBe('2026-11-01T00:00:00.000Z');
  });
});
