import type { Action } from '../model/action.js';
import type { Manifest } from '../model/manifest.js';
import type { GpuChange, GpuSummary, Plan } from '../model/plan.js';
import { gpusOf, type PriceFile } from '../model/prices.js';

/** Average hours in a month (365 × 24 / 12), as cloud price lists count them. */
const HOURS_PER_MONTH = 730;

/** The compute profile an action creates (+1) or deletes (-1), if it is such an action. */
function profileDelta(a: Action): { profile: string; delta: 1 | -1 } | undefined {
  if (a.target.kind !== 'ComputeInstance') return undefined;
  if (a.type === 'create') {
    const m = a.desired as Extract<Manifest, { kind: 'ComputeInstance' }>;
    return { profile: m.spec.computeProfile.name, delta: 1 };
  }
  if (a.type === 'delete') {
    // a delete carries the live body it removes as its changes
    const spec = a.changes.find((c) => c.path === '/spec')?.before as
      | { computeProfile?: { name?: unknown } }
      | undefined;
    const name = spec?.computeProfile?.name;
    return typeof name === 'string' ? { profile: name, delta: -1 } : undefined;
  }
  return undefined;
}

const round = (n: number) => Math.round(n * 100) / 100;

/**
 * GPU-hours (and cost, with a price file) per day and per month that the plan's compute creates
 * and deletes add or remove, per profile, sorted by profile; undefined when the plan creates or
 * deletes no compute. A profile's GPUs come from the price file, else the documented defaults.
 * Pure.
 */
export function gpuSummary(plan: Plan, prices?: PriceFile): GpuSummary | undefined {
  const counts = new Map<string, number>();
  for (const a of plan.actions) {
    const d = profileDelta(a);
    if (d) counts.set(d.profile, (counts.get(d.profile) ?? 0) + d.delta);
  }
  if (counts.size === 0) return undefined;
  const changes = [...counts]
    .filter(([, n]) => n !== 0)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([profile, instances]): GpuChange => {
      const gpus = gpusOf(profile, prices);
      const hourly = prices?.profiles[profile]?.hourly;
      return {
        profile,
        instances,
        ...(gpus !== undefined
          ? {
              gpuHoursPerDay: instances * gpus * 24,
              gpuHoursPerMonth: instances * gpus * HOURS_PER_MONTH,
            }
          : {}),
        ...(hourly !== undefined
          ? {
              costPerDay: round(instances * hourly * 24),
              costPerMonth: round(instances * hourly * HOURS_PER_MONTH),
            }
          : {}),
      };
    });
  if (changes.length === 0) return undefined;
  const costed = changes.some((c) => c.costPerDay !== undefined);
  return { changes, ...(costed && prices ? { currency: prices.currency } : {}) };
}

const signed = (n: number) =>
  `${n > 0 ? '+' : n < 0 ? '−' : '±'}${Math.abs(n).toLocaleString('en-US', { maximumFractionDigits: 2 })}`;

/**
 * One line per profile for people: `+3 × bmaas-h100 ≈ +576 GPU-h/day (+17,520/month), +7,078.32
 * USD/day (+215,290.40/month)`. Pure.
 */
export function gpuLines(summary: GpuSummary): string[] {
  return summary.changes.map((c) => {
    const parts = [`${signed(c.instances)} × ${c.profile}`];
    if (c.gpuHoursPerDay !== undefined) {
      parts.push(
        `≈ ${signed(c.gpuHoursPerDay)} GPU-h/day (${signed(c.gpuHoursPerMonth ?? 0)}/month)`,
      );
    } else parts.push('(GPUs of this profile unknown: add it to the price file)');
    if (c.costPerDay !== undefined) {
      parts.push(
        `${c.gpuHoursPerDay !== undefined ? ', ' : ''}${signed(c.costPerDay)} ${summary.currency ?? ''}/day (${signed(c.costPerMonth ?? 0)}/month)`,
      );
    }
    return parts.join(' ').replace(' , ', ', ');
  });
}
