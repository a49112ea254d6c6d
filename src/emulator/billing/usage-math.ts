/**
 * The billing arithmetic of the spec, pure and exact: usage of a quantity-type parameter is the
 * quantity of its lowest unit × hours, written as decimal hours with scale 2 and the suffix `h`.
 * Everything is computed in integers (seconds, and hundredths of an hour as bigint) so no float
 * rounding can creep in: 0.01 h is 36 s, and halves round up (18 s → 0.01 h).
 */

import type { ProfileRecord } from '../lookups.js';

/** Seconds in one hundredth of an hour. */
const SECONDS_PER_CENTIHOUR = 36;

/** Hardware of a profile as billed (the seed's `profiles` records). */
export type BilledHardware = ProfileRecord['hardware'];

/** One entry of `parameters[]`: quantitative with `labels`, or a label with `is_label` and `value`. */
export type UsageParameter =
  | { readonly name: string; readonly usage: string; readonly labels: Record<string, string> }
  | {
      readonly name: string;
      readonly usage: string;
      readonly is_label: true;
      readonly value: string;
    };

function assertCount(what: string, n: number): void {
  if (!Number.isSafeInteger(n) || n < 0) {
    throw new RangeError(`${what} must be a non-negative safe integer, got ${n}`);
  }
}

/** quantity × seconds in hundredths of an hour, rounded half-up. Throws RangeError on non-integers. */
export function centiHours(quantity: number, seconds: number): bigint {
  assertCount('quantity', quantity);
  assertCount('seconds', seconds);
  const units = BigInt(quantity) * BigInt(seconds);
  const per = BigInt(SECONDS_PER_CENTIHOUR);
  return (units * 2n + per) / (per * 2n);
}

/** Hundredths of an hour written as the API does: `1200.00h`. */
export function formatCentiHours(cents: bigint): string {
  const whole = cents / 100n;
  const frac = (cents % 100n).toString().padStart(2, '0');
  return `${whole}.${frac}h`;
}

/** `quantity × seconds` as a usage string: usageString(100, 12 * 3600) === '1200.00h'. */
export function usageString(quantity: number, seconds: number): string {
  return formatCentiHours(centiHours(quantity, seconds));
}

/**
 * The `parameters[]` of a profile used for `seconds` of instance time in total (summed over all
 * instances of a report line, which share the profile, so quantity × total seconds is exact):
 * cpu_count (labels cpu_arch), gpu_count (labels gpu_model), memory_size and storage_size in GB
 * (storage labelled with its storage_type), and the region as a label.
 */
export function usageParameters(
  hw: BilledHardware,
  region: string,
  seconds: number,
): UsageParameter[] {
  return [
    {
      name: 'cpu_count',
      usage: usageString(hw.cpu_count, seconds),
      labels: { cpu_arch: hw.cpu_arch },
    },
    {
      name: 'gpu_count',
      usage: usageString(hw.gpu_count, seconds),
      labels: { gpu_model: hw.gpu_model },
    },
    { name: 'memory_size', usage: usageString(hw.memory_size_gb, seconds), labels: {} },
    {
      name: 'storage_size',
      usage: usageString(hw.storage_size_gb, seconds),
      labels: { storage_type: hw.storage_type },
    },
    { name: 'region', usage: usageString(1, seconds), is_label: true, value: region },
  ];
}

/**
 * Whole seconds of `[fromMs, toMs)` that fall inside `[rangeFromMs, rangeToMs)`. Boundaries are
 * floored to whole seconds first, so adjacent stretches add up exactly. Pure.
 */
export function overlapSeconds(
  fromMs: number,
  toMs: number,
  rangeFromMs: number,
  rangeToMs: number,
): number {
  const sec = (ms: number) => Math.floor(ms / 1000);
  const start = Math.max(sec(fromMs), sec(rangeFromMs));
  const end = Math.min(sec(toMs), sec(rangeToMs));
  return Math.max(0, end - start);
}
