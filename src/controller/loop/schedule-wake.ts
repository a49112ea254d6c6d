import type { Plan } from '../../model/plan.js';
import type { StepOutcome } from './ports.js';

/**
 * How long after a boundary the loop wakes: the run then reads a clock past it, so it plans the
 * new period's state and not the old one once more.
 */
const PAST_BOUNDARY_MS = 1000;

/**
 * The step's requeue, made sooner when a power schedule of its plan changes what it wants before
 * then (pure): the loop wakes at the next transition (plus {@link PAST_BOUNDARY_MS}), not only at
 * its interval, so instances are powered at their period's boundary (docs/governance.md).
 */
export function wakeForSchedules(outcome: StepOutcome, plan: Plan | undefined, now: number) {
  let soonest = Number.POSITIVE_INFINITY;
  for (const s of plan?.schedules ?? []) {
    const at = Date.parse(s.next[0]?.at ?? '');
    if (at > now) soonest = Math.min(soonest, at);
  }
  const wait = soonest - now + PAST_BOUNDARY_MS;
  return wait < outcome.requeueAfterMs ? { ...outcome, requeueAfterMs: wait } : outcome;
}
