import type { Action } from '../model/action.js';
import type { Manifest } from '../model/manifest.js';
import type { GpuChange, GpuSummary, Plan } from '../model/plan.js';
import type { PriceFile } from '../model/prices.js';
import { gpusOfSize, type InstanceSize, sizeBefore, sizeOf } from './gpu-count.js';

/** Average hours in a month (365 × 24 / 12), as cloud price lists count them. */
const HOURS_PER_MONTH = 730;

/** What a plan does to one profile: instances created, deleted, resized, and units gained. */
interface Tally {
  created: number;
  deleted: number;
  resized: number;
  /** Units (instances; worker nodes of Kubernetes instances) added, less those removed. */
  units: number;
}

/** Adds each compute instance the action creates, deletes or resizes to `tallies` (pure). */
function count(a: Action, tallies: Map<string, Tally>): void {
  if (a.target.kind !== 'ComputeInstance') return;
  const tally = (size: InstanceSize) => {
    const t = tallies.get(size.profile) ?? { created: 0, deleted: 0, resized: 0, units: 0 };
    tallies.set(size.profile, t);
    return t;
  };
  if (a.type === 'create') {
    const size = sizeOf((a.desired as Extract<Manifest, { kind: 'ComputeInstance' }>).spec);
    if (!size) return;
    tally(size).created++;
    tally(size).units += size.units;
  } else if (a.type === 'delete') {
    // a delete carries the live body it removes as its changes
    const size = sizeOf(a.changes.find((c) => c.path === '/spec')?.before);
    if (!size) return;
    tally(size).deleted++;
    tally(size).units -= size.units;
  } else if (a.type === 'update') {
    const spec = (a.desired as Extract<Manifest, { kind: 'ComputeInstance' }>).spec;
    const [before, after] = [sizeBefore(spec, a.changes), sizeOf(spec)];
    if (!before || !after || before.units === after.units) return;
    tally(after).resized++;
    tally(before).units -= before.units;
    tally(after).units += after.units;
  }
}

/**
 * What compute instances keep running, per profile, from their specs (a live body's `spec`): each
 * counted as `created` (kept, not added; render with `gpuLines(summary, true)`). Undefined when
 * none of them names a profile. Pure.
 */
export function gpuKept(specs: readonly unknown[], prices?: PriceFile): GpuSummary | undefined {
  const tallies = new Map<string, Tally>();
  for (const spec of specs) {
    const size = sizeOf(spec);
    if (!size) continue;
    const t = tallies.get(size.profile) ?? { created: 0, deleted: 0, resized: 0, units: 0 };
    t.created++;
    t.units += size.units;
    tallies.set(size.profile, t);
  }
  return summaryOf(tallies, prices);
}

const round = (n: number) => Math.round(n * 100) / 100;

/**
 * GPU-hours (and cost, with a price file) per day and per month that the plan's compute creates,
 * deletes and resizes add or remove, per profile, sorted by profile; undefined when the plan
 * touches no compute's size. A create and a delete of one profile (a rename) are both shown, even
 * when they cancel out. A profile's GPUs (and price) are per instance, per worker node for a
 * Kubernetes instance (docs/api-assumptions.md); they come from the price file, else the
 * documented defaults. Pure.
 */
export function gpuSummary(plan: Plan, prices?: PriceFile): GpuSummary | undefined {
  const tallies = new Map<string, Tally>();
  for (const a of plan.actions) count(a, tallies);
  return summaryOf(tallies, prices);
}

function summaryOf(tallies: Map<string, Tally>, prices?: PriceFile): GpuSummary | undefined {
  const changes = [...tallies]
    .filter(([, t]) => t.created + t.deleted + t.resized > 0)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([profile, t]) => gpuChange(profile, t, prices));
  if (changes.length === 0) return undefined;
  const costed = changes.some((c) => c.costPerDay !== undefined);
  return { changes, ...(costed && prices ? { currency: prices.currency } : {}) };
}

function gpuChange(profile: string, t: Tally, prices?: PriceFile): GpuChange {
  const gpus = gpusOfSize({ profile, units: t.units }, prices);
  const hourly = prices?.profiles[profile]?.hourly;
  return {
    profile,
    instances: t.created - t.deleted,
    ...(t.created ? { created: t.created } : {}),
    ...(t.deleted ? { deleted: t.deleted } : {}),
    ...(t.resized ? { resized: t.resized } : {}),
    ...(gpus !== undefined
      ? { gpuHoursPerDay: gpus * 24, gpuHoursPerMonth: gpus * HOURS_PER_MONTH }
      : {}),
    ...(hourly !== undefined
      ? {
          costPerDay: round(t.units * hourly * 24),
          costPerMonth: round(t.units * hourly * HOURS_PER_MONTH),
        }
      : {}),
  };
}

const plain = (n: number) => n.toLocaleString('en-US', { maximumFractionDigits: 2 });
const withSign = (n: number) => `${n > 0 ? '+' : n < 0 ? '−' : '±'}${plain(Math.abs(n))}`;

/** `+3 × bmaas-h100`, or `gpu-k8s: +1 created, −1 deleted, 2 resized` when it is not one way. */
function what(c: GpuChange, sign: (n: number) => string): string {
  if (!c.resized && !(c.created && c.deleted)) return `${sign(c.instances)} × ${c.profile}`;
  const parts = [
    ...(c.created ? [`+${c.created} created`] : []),
    ...(c.deleted ? [`−${c.deleted} deleted`] : []),
    ...(c.resized ? [`${c.resized} resized`] : []),
  ];
  return `${c.profile}: ${parts.join(', ')}`;
}

/**
 * One line per profile for people: `+3 × bmaas-h100 ≈ +576 GPU-h/day (+17,520/month), +7,078.32
 * USD/day (+215,290.40/month)`; `gpu-k8s: +1 created, −1 deleted ≈ ±0 GPU-h/day (±0/month)`.
 * `kept`: what keeps running (see {@link gpuKept}), without signs. Pure.
 */
export function gpuLines(summary: GpuSummary, kept = false): string[] {
  const signed = kept ? plain : withSign;
  return summary.changes.map((c) => {
    const parts = [what(c, signed)];
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
