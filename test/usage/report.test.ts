import { describe, expect, it } from 'vitest';
import { parsePrices } from '../../src/model/prices.js';
import { renderCsv, renderTerminalChart } from '../../src/usage/render.js';
import { usageReport } from '../../src/usage/report.js';

const items = [
  { project: 'ml', profile: 'bmaas-h100', instance: 'a', hours: 24, gpuHours: 192 },
  { project: 'ml', profile: 'bmaas-h100', instance: 'b', hours: 6 },
  { project: 'web, "eu"', profile: 'bmaas-l40s', instance: 'c', hours: 12 },
];

describe('usage report', () => {
  it('costs rows from the price file and falls back to the profile GPUs for GPU-hours', () => {
    const prices = parsePrices({ profiles: { 'bmaas-h100': { hourly: 2.5, gpus: 4 } } }, 'p.yaml');
    const r = usageReport(items, {}, prices);
    expect(r.rows.map((x) => [x.instance, x.gpuHours, x.cost])).toEqual([
      ['a', 192, 60],
      ['b', 24, 15],
      ['c', 96, undefined],
    ]);
    expect(r.total).toEqual({ hours: 42, gpuHours: 312, cost: 75 });
    expect(usageReport(items, { byProfile: true }).rows.map((x) => [x.profile, x.hours])).toEqual([
      ['bmaas-h100', 30],
      ['bmaas-l40s', 12],
    ]);
  });

  it('quotes CSV cells that need it', () => {
    expect(renderCsv(usageReport(items, { instance: 'c' })).split('\r\n')[1]).toBe(
      '"web, ""eu""",c,bmaas-l40s,12.00,96.00,,',
    );
  });

  it('draws terminal bars proportional to hours', () => {
    const chart = renderTerminalChart(usageReport(items, {}), 8).split('\n');
    expect(chart[0]).toBe('ml/a        │████████ 24.00h');
    expect(chart[1]).toBe('ml/b        │██ 6.00h');
    expect(chart[2]).toBe('web, "eu"/c │████ 12.00h');
  });
});
