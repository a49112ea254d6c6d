import { AbortGroups } from '../../core/abort-groups.js';
import type { Clock } from '../../core/clock.js';

/** Waits for the next start slot; rejects with the signal's reason if aborted first (nothing sent). */
export type Pacer = (signal?: AbortSignal) => Promise<void>;

/**
 * How far behind its schedule a late timer lets the pacer catch up (pure): at high rates about
 * 20 ms' worth of requests (a burst of 19 at 1,000 rps), at low rates a sixth of the spacing (at
 * 20 rps no two starts closer than 41.7 ms), so a catch-up is never a burst at a rate where
 * even spacing is what keeps the platform's seconds under `rps`.
 */
export function catchUpMs(rps: number): number {
  const spacing = 1000 / rps;
  return Math.max(20 - spacing, spacing / 6);
}

/** The span of slots that start on one wake at high rates (ms). */
export const PACER_GROUP_MS = 4;

/**
 * How far ahead of its slot a start may go with the one that is due (pure): the slots that fall
 * within {@link PACER_GROUP_MS} of it start on the same wake, as a group (at 1,000 rps four starts a
 * wake, every 4 ms; at 500 rps two; at 250 rps and below each slot keeps a wake of its own). A
 * wake per 1 ms slot was, with the state commit each answer brought, what pacing cost the engine
 * beside an unpaced run (bench/README.md); a group's requests leave in one turn, their answers
 * come back together and their records share a commit. The hard window is not moved: a group
 * never makes a rolling second exceed `rps`.
 */
export function groupLeadMs(rps: number): number {
  return Math.max(0, PACER_GROUP_MS - 1000 / rps);
}

interface Waiter {
  readonly arrived: number;
  readonly resolve: () => void;
  readonly reject: (reason: unknown) => void;
  readonly signal: AbortSignal | undefined;
}

/**
 * Start slots at `rps`, one every `1000 / rps` ms in arrival order (I/O: timers through `clock`);
 * at high rates the slots of {@link PACER_GROUP_MS} start together, up to {@link groupLeadMs} early.
 *
 * The schedule is kept from the slots, not from when the timer fired: a timer that fires late
 * (the event loop was busy) lets the waiters that were due go at once, so a busy process still
 * sends at `rps` instead of `rps` less its lateness (p-queue's interval restarted from the late
 * timer: 770 requests/s at `--rps 1000`). The catch-up is bounded by {@link catchUpMs}, and a
 * hard window over the actual start times keeps any rolling second at or under `rps` (for a
 * fractional rate, one start per `1000 / rps` ms) whatever the timers do.
 */
export function createPacer(rps: number, clock: Clock): Pacer {
  if (!(rps > 0) || !Number.isFinite(rps)) {
    throw new TypeError(`rps must be a positive number, got ${String(rps)}`);
  }
  const spacing = 1000 / rps;
  const catchUp = catchUpMs(rps);
  // the hard window: at most `cap` starts in any `window` ms
  const cap = Math.max(1, Math.floor(rps));
  const window = (cap * 1000) / rps;
  const starts = new Array<number>(cap).fill(Number.NEGATIVE_INFINITY);
  let oldest = 0; // index of the oldest of the last `cap` starts
  let next = Number.NEGATIVE_INFINITY; // the schedule's next slot
  const queue: Waiter[] = [];
  let pumping = false;

  const lead = groupLeadMs(rps);
  /** `head`'s slot: the schedule's next, never before it arrived or the hard window allows. */
  const slotOf = (head: Waiter) => Math.max(next, head.arrived, starts[oldest]! + window);

  // The waiters of each signal, behind one abort listener per signal
  const waiting = new AbortGroups<Waiter>((w, reason) => {
    const at = queue.indexOf(w);
    if (at >= 0) queue.splice(at, 1);
    w.reject(reason);
  });

  const start = (head: Waiter, slot: number, now: number) => {
    next = Math.max(slot + spacing, now + spacing - catchUp);
    starts[oldest] = now;
    oldest = (oldest + 1) % cap;
    if (head.signal) waiting.delete(head.signal, head);
    head.resolve();
  };

  const pump = async () => {
    pumping = true;
    try {
      while (queue.length > 0) {
        const now = clock.now();
        const due = slotOf(queue[0]!);
        if (due > now) {
          await clock.sleep(due - now);
          continue;
        }
        // the slot that is due, and those up to `lead` after it, start on this one wake; a
        // start ahead of its slot never goes before the hard window allows
        let slot = due;
        do {
          start(queue.shift()!, slot, now);
          slot = queue.length > 0 ? slotOf(queue[0]!) : Number.POSITIVE_INFINITY;
        } while (slot - lead <= now && starts[oldest]! + window <= now);
      }
    } finally {
      pumping = false;
    }
  };

  return (signal) =>
    new Promise<void>((resolve, reject) => {
      if (signal?.aborted) return reject(signal.reason);
      const waiter: Waiter = { arrived: clock.now(), resolve, reject, signal };
      if (signal) waiting.add(signal, waiter);
      queue.push(waiter);
      if (!pumping) void pump();
    });
}
