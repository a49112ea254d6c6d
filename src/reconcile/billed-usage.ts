import type { BilledUsage } from './policy-variables.js';

/** One billed line as the usage reader gives it (`providers/usage-reader.ts`). */
interface UsageLine {
  readonly project: string;
  readonly hours: number;
  readonly gpuHours?: number;
}

/**
 * Reads billed usage lines from an ISO time up to the platform's now (I/O): the billing reader,
 * narrowed.
 */
export type UsagePort = (query: { from: string }) => Promise<readonly UsageLine[]>;

/**
 * This month's billed usage per project, from the first of `nowMs`'s month (UTC) up to the
 * platform's now: what a policy reads as `plan.usage.<project>.hours` and `.gpuHours` (I/O
 * through `read`).
 */
export async function billedUsage(read: UsagePort, nowMs: number): Promise<BilledUsage> {
  const now = new Date(nowMs);
  const from = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), 1)).toISOString();
  const out: Record<string, { hours: number; gpuHours: number }> = {};
  for (const line of await read({ from })) {
    const p = out[line.project] ?? { hours: 0, gpuHours: 0 };
    out[line.project] = {
      hours: p.hours + line.hours,
      gpuHours: p.gpuHours + (line.gpuHours ?? 0),
    };
  }
  return out;
}
