import type { UsageItem } from '../api/usage.js';

/** What usage is summed by. */
export type UsageGroupBy = 'project' | 'profile' | 'instance';

/** One row of the usage table: a project, profile or instance over the range. */
export interface UsageGroup {
  readonly key: string;
  readonly hours: number;
  readonly gpuHours: number;
  /** Undefined when no line of the group is priced. */
  readonly cost?: number;
  /** Lines (instance × profile) summed. */
  readonly lines: number;
}

const round2 = (n: number) => Math.round(n * 100) / 100;

/** The key an item is summed under (an instance is named with its project). */
function keyOf(item: UsageItem, by: UsageGroupBy): string {
  if (by === 'instance') return `${item.project}/${item.instance ?? '?'}`;
  return by === 'project' ? item.project : item.profile;
}

/**
 * Usage lines summed per project, profile or instance (pure): hours, GPU-hours and cost, the
 * costliest first (then most hours, then by name).
 */
export function usageGroups(items: readonly UsageItem[], by: UsageGroupBy): UsageGroup[] {
  const groups = new Map<
    string,
    { hours: number; gpuHours: number; cost?: number; lines: number }
  >();
  for (const item of items) {
    const key = keyOf(item, by);
    const g = groups.get(key) ?? { hours: 0, gpuHours: 0, lines: 0 };
    g.hours += item.hours;
    g.gpuHours += item.gpuHours ?? 0;
    if (item.cost !== undefined) g.cost = (g.cost ?? 0) + item.cost;
    g.lines++;
    groups.set(key, g);
  }
  return [...groups.entries()]
    .map(([key, g]) => ({
      key,
      hours: round2(g.hours),
      gpuHours: round2(g.gpuHours),
      ...(g.cost !== undefined ? { cost: round2(g.cost) } : {}),
      lines: g.lines,
    }))
    .sort(
      (a, b) => (b.cost ?? 0) - (a.cost ?? 0) || b.hours - a.hours || a.key.localeCompare(b.key),
    );
}

/** The range's totals (pure). */
export function usageTotals(items: readonly UsageItem[]): Omit<UsageGroup, 'key'> {
  const all = usageGroups(
    items.map((i) => ({ ...i, project: '' })),
    'project',
  )[0];
  if (!all) return { hours: 0, gpuHours: 0, lines: 0 };
  const { key: _key, ...totals } = all;
  return totals;
}

/** `1,234.50 USD`, or `—` without a price. */
export function money(amount: number | undefined, currency: string | undefined): string {
  if (amount === undefined) return '—';
  return `${amount.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })} ${currency ?? ''}`.trim();
}

/** `YYYY-MM-DD` of the first day of `now`'s UTC month, and of `now` (pure). */
export function monthSoFar(now: number): { from: string; to: string } {
  const d = new Date(now);
  const from = new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1));
  return { from: from.toISOString().slice(0, 10), to: d.toISOString().slice(0, 10) };
}

/**
 * The API's window for a range of dates (pure): from the start of `from` to the end of `to`
 * (UTC), so a one-day range is that whole day.
 */
export function rangeWindow(from: string, to: string): { from: string; to: string } {
  const end = new Date(`${to}T00:00:00Z`);
  end.setUTCDate(end.getUTCDate() + 1);
  return { from: `${from}T00:00:00.000Z`, to: end.toISOString() };
}
