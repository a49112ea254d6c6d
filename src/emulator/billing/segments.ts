import type { EmuContext } from '../http/types.js';

/**
 * One stretch of billable lifetime of a compute instance: collection `usage`, key
 * `<instanceId>/<seq>`. It opens when a publish is accepted (starting when provisioning will end,
 * i.e. at `success`) and closes when the instance is republished, failed, powered off or its
 * deletion is requested; a power on opens the next. Segments outlive the instance, so usage stays
 * reportable after it is gone.
 */
export interface UsageSegment {
  readonly instanceId: string;
  readonly instanceName: string;
  readonly project: string;
  readonly workspace: string;
  readonly organizationId: string;
  readonly profile: string;
  readonly seq: number;
  /** Start of billing (epoch ms); may lie in the future while provisioning. */
  readonly fromMs: number;
  /** End of billing (epoch ms), or null while open (then it runs to the clock's now). */
  readonly toMs: number | null;
  /**
   * The instance's creation time as the instance shows it (ISO), for the dialects whose usage rows
   * carry it: kept here so a row still has it once the instance is gone. Absent on segments
   * stored before it was kept.
   */
  readonly createdAt?: string;
}

const COLLECTION = 'usage';

const segmentKey = (instanceId: string, seq: number) =>
  `${instanceId}/${String(seq).padStart(6, '0')}`;

/** Opens a segment for a published instance (closing any still open first). */
export function openSegment(
  ctx: EmuContext,
  segment: Omit<UsageSegment, 'seq' | 'toMs'>,
): UsageSegment {
  closeSegments(ctx, segment.instanceId, ctx.clock.now());
  const seq = ctx.store.list<UsageSegment>(COLLECTION, `${segment.instanceId}/`).length + 1;
  const opened: UsageSegment = { ...segment, seq, toMs: null };
  ctx.store.put(COLLECTION, segmentKey(segment.instanceId, seq), opened);
  return opened;
}

/**
 * Closes the open segments of an instance at `atMs`. A segment whose start is still ahead (the
 * instance never reached `success`) closes empty: `toMs` is never before `fromMs`.
 */
export function closeSegments(ctx: EmuContext, instanceId: string, atMs: number): void {
  for (const s of ctx.store.list<UsageSegment>(COLLECTION, `${instanceId}/`)) {
    if (s.toMs !== null) continue;
    const closed: UsageSegment = { ...s, toMs: Math.max(s.fromMs, atMs) };
    ctx.store.put(COLLECTION, segmentKey(s.instanceId, s.seq), closed);
  }
}

/** Every segment, in key order. */
export function allSegments(ctx: EmuContext): UsageSegment[] {
  return ctx.store.list<UsageSegment>(COLLECTION);
}
