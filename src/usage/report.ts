import { gpusOf, type PriceFile } from '../model/prices.js';
import type { UsageItem } from '../providers/usage-reader.js';

/** One row of `platctl usage`: an instance's (or a profile's) usage in the window. */
export interface UsageRow {
  readonly project: string;
  /** The instance's name; absent on a per-profile row. */
  readonly instance?: string;
  readonly profile: string;
  readonly hours: number;
  readonly gpuHours: number;
  /** hours × the profile's hourly price, when the price file has one. */
  readonly cost?: number;
}

export interface UsageReport {
  readonly from?: string;
  readonly to?: string;
  readonly currency?: string;
  readonly rows: readonly UsageRow[];
  readonly total: { readonly hours: number; readonly gpuHours: number; readonly cost?: number };
}

/** Which rows to keep and how to group them. */
export interface UsageFilter {
  readonly instance?: string;
  readonly profile?: string;
  /** One row per profile (and project) instead of one per instance. */
  readonly byProfile?: boolean;
}

const cents = (n: number) => Math.round(n * 100) / 100;

/**
 * The report: rows filtered, grouped, costed from the price file, ordered by project then
 * instance (or profile), with totals. GPU-hours are the billing report's `gpu_count` usage, else
 * hours × the profile's GPUs. Pure.
 */
export function usageReport(
  items: readonly UsageItem[],
  filter: UsageFilter,
  prices?: PriceFile,
  window: { from?: string; to?: string } = {},
): UsageReport {
  const grouped = new Map<
    string,
    { project: string; instance?: string; profile: string; hours: number; gpuHours: number }
  >();
  for (const item of items) {
    if (filter.instance !== undefined && item.instance !== filter.instance) continue;
    if (filter.profile !== undefined && item.profile !== filter.profile) continue;
    const instance = filter.byProfile ? undefined : item.instance;
    const key = [item.project, instance ?? '', item.profile].join('\u0000');
    const gpuHours = item.gpuHours ?? item.hours * (gpusOf(item.profile, prices) ?? 0);
    const prev = grouped.get(key);
    grouped.set(key, {
      project: item.project,
      ...(instance !== undefined ? { instance } : {}),
      profile: item.profile,
      hours: (prev?.hours ?? 0) + item.hours,
      gpuHours: (prev?.gpuHours ?? 0) + gpuHours,
    });
  }
  const rows: UsageRow[] = [...grouped.values()]
    .map((r) => {
      const hourly = prices?.profiles[r.profile]?.hourly;
      return {
        ...r,
        hours: cents(r.hours),
        gpuHours: cents(r.gpuHours),
        ...(hourly !== undefined ? { cost: cents(r.hours * hourly) } : {}),
      };
    })
    .sort(
      (a, b) =>
        a.project.localeCompare(b.project) ||
        (a.instance ?? '').localeCompare(b.instance ?? '') ||
        a.profile.localeCompare(b.profile),
    );
  const sum = (f: (r: UsageRow) => number) => cents(rows.reduce((s, r) => s + f(r), 0));
  const costed = rows.some((r) => r.cost !== undefined);
  return {
    ...(window.from ? { from: window.from } : {}),
    ...(window.to ? { to: window.to } : {}),
    ...(prices && costed ? { currency: prices.currency } : {}),
    rows,
    total: {
      hours: sum((r) => r.hours),
      gpuHours: sum((r) => r.gpuHours),
      ...(costed ? { cost: sum((r) => r.cost ?? 0) } : {}),
    },
  };
}

/** A row's label in charts: `project/instance` or `project/profile`. Pure. */
export function rowLabel(r: UsageRow): string {
  return `${r.project}/${r.instance ?? r.profile}`;
}
