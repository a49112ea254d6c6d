import { gpusOf, type PriceFile } from '../../../model/prices.js';
import type { UsageItem } from '../../../providers/usage-reader.js';

/** A usage line with its cost (`hours × hourly` of its profile) when the price file has one. */
export interface PricedItem extends UsageItem {
  readonly cost?: number;
  /** GPUs of one instance of the profile (the price file's, else the platform's documented). */
  readonly gpus?: number;
}

const cents = (n: number) => Math.round(n * 100) / 100;

/** Each line priced with `prices` (pure); lines of unpriced profiles carry no cost. */
export function priced(items: readonly UsageItem[], prices: PriceFile | undefined): PricedItem[] {
  return items.map((item) => {
    const hourly = prices?.profiles[item.profile]?.hourly;
    const gpus = gpusOf(item.profile, prices);
    return {
      ...item,
      ...(hourly !== undefined ? { cost: cents(item.hours * hourly) } : {}),
      ...(gpus !== undefined ? { gpus } : {}),
    };
  });
}

/** One day of the trend: totals of the day's lines. */
export interface UsageDay {
  /** `YYYY-MM-DD` (UTC). */
  readonly day: string;
  readonly hours: number;
  readonly gpuHours: number;
  readonly cost?: number;
}

const DAY_MS = 86_400_000;
/** The most days one trend reads (one billing read each). */
const MAX_DAYS = 62;

/**
 * The UTC days from `from` to `to` as windows, the first and last cut to the range (pure); at
 * most {@link MAX_DAYS}, the latest kept.
 */
export function dayWindows(from: string, to: string): { from: string; to: string }[] {
  const end = Date.parse(to);
  const windows: { from: string; to: string }[] = [];
  for (let start = Date.parse(from); start < end; ) {
    const next = Math.min(end, (Math.floor(start / DAY_MS) + 1) * DAY_MS);
    windows.push({ from: new Date(start).toISOString(), to: new Date(next).toISOString() });
    start = next;
  }
  return windows.slice(-MAX_DAYS);
}

/** The first instant of `nowMs`'s UTC month (pure). */
export function monthStart(nowMs: number): string {
  const d = new Date(nowMs);
  return new Date(Date.UTC(d.getUTCFullYear(), d.getUTCMonth(), 1)).toISOString();
}

/** A day's totals from its priced lines (pure). */
export function dayTotal(day: string, items: readonly PricedItem[]): UsageDay {
  const costs = items.filter((i) => i.cost !== undefined);
  return {
    day,
    hours: cents(items.reduce((a, i) => a + i.hours, 0)),
    gpuHours: cents(items.reduce((a, i) => a + (i.gpuHours ?? 0), 0)),
    ...(costs.length > 0 ? { cost: cents(costs.reduce((a, i) => a + i.cost!, 0)) } : {}),
  };
}
