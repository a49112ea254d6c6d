import PQueue from 'p-queue';
import type { Clock } from '../core/clock.js';
import { PlatctlError, redact } from '../core/errors.js';
import type { Action, ActionOutcome } from '../model/action.js';
import type { Plan } from '../model/plan.js';
import type { ExecuteResult } from '../model/provider.js';
import type { EventSink } from './events.js';

/** What the executor needs from the outside: how to perform an action and where to report. */
export interface ExecutorPorts {
  /** Performs one non-noop action (I/O); throws on failure. */
  perform(
    action: Action,
    progress: (message: string, expectedMs?: number) => void,
  ): Promise<ExecuteResult>;
  /** Called before an action starts (write pending records here); awaited before it starts. */
  beforeStart?(action: Action): void | Promise<void>;
  /**
   * Called as soon as an action settles (record results here); awaited before dependents start.
   * Returning nothing (not a promise) says there was nothing to wait for: the settle goes on in
   * the same turn (a noop the state already knows costs no promise).
   */
  settled?(action: Action, outcome: ActionOutcome, result?: ExecuteResult): void | Promise<void>;
  readonly clock: Clock;
  readonly events?: EventSink;
  /**
   * Asked right before each non-noop action (no I/O): false once this process may no longer
   * write (a controller that cannot prove it still leads). No action starts from then on, as
   * after a stop; the running ones finish. Undefined: always true.
   */
  canWrite?(): boolean;
  /**
   * Asked between noops settled in one stretch (no I/O): a promise when the event loop should
   * get a turn first (`Slicer.pause` of `core/slices.ts`), else undefined. Undefined: never pauses.
   */
  pause?(): Promise<void> | undefined;
}

export interface ExecuteOptions {
  /** Actions running at once. @default 4 */
  readonly concurrency?: number;
  /** Soft stop: no new action starts; running ones finish and are recorded. */
  readonly signal?: AbortSignal;
}

/**
 * Executes exactly the plan's actions (I/O through `ports`). The graph decides what is ready,
 * p-queue how many run at once (a noop, which sends nothing, settles as soon as it is ready,
 * without a place in the queue). A failed action skips only its transitive dependents, each
 * recorded as skipped `because` the failed root. Returns an outcome for every action, in plan
 * order: actions never started (after a stop, or once `canWrite` said no) are `not-started`. An action's place in the queue
 * is free once its request is answered; its `settled` hook, its `finish` event and its
 * dependents follow, and the run returns only after every settle. Never throws for an action;
 * when a hook fails (a state write refused or lost: the record would be wrong), no new action
 * starts, the running ones finish, and it rejects with the hook's first error.
 */
export async function executePlan(
  plan: Plan,
  ports: ExecutorPorts,
  options: ExecuteOptions = {},
): Promise<Map<string, ActionOutcome>> {
  const concurrency = options.concurrency ?? 4;
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new TypeError(`concurrency must be a positive integer, got ${String(concurrency)}`);
  }
  const queue = new PQueue({ concurrency });
  const byId = new Map(plan.actions.map((a) => [a.id, a]));
  const waiting = new Map<string, number>();
  const dependents = new Map<string, string[]>();
  for (const a of plan.actions) {
    const known = a.dependsOn.filter((d) => byId.has(d));
    waiting.set(a.id, known.length);
    for (const d of known) {
      const list = dependents.get(d);
      if (list) list.push(a.id);
      else dependents.set(d, [a.id]);
    }
  }
  const outcomes = new Map<string, ActionOutcome>();
  let hookFailure: { error: unknown } | undefined;
  let fenced = false;
  const stopped = () => options.signal?.aborted === true || hookFailure !== undefined || fenced;

  /**
   * Records `a`'s outcome, then (once the `settled` hook is done) reports it and releases its
   * dependents. Undefined when the hook returned nothing: then all of it happened in this call.
   */
  const settle = (a: Action, outcome: ActionOutcome, result?: ExecuteResult) => {
    outcomes.set(a.id, outcome);
    const hook = ports.settled?.(a, outcome, result);
    return hook ? hook.then(() => release(a, outcome)) : release(a, outcome);
  };
  const release = (a: Action, outcome: ActionOutcome): Promise<void> | undefined => {
    ports.events?.({ type: 'finish', action: a, outcome });
    if (outcome.status === 'succeeded') {
      for (const d of dependents.get(a.id) ?? []) {
        const left = waiting.get(d)! - 1;
        waiting.set(d, left);
        if (left === 0 && !outcomes.has(d)) schedule(byId.get(d)!);
      }
      drainNoops();
    } else if (outcome.status === 'failed' || outcome.status === 'skipped') {
      return skipDependents(a, outcome.status === 'failed' ? a.id : outcome.because);
    }
    return undefined;
  };
  const skipDependents = async (a: Action, root: string) => {
    for (const d of dependents.get(a.id) ?? []) {
      if (!outcomes.has(d)) await settle(byId.get(d)!, { status: 'skipped', because: root });
    }
  };

  /**
   * Settles whose hook is still at work. An action gives its place in the queue up once its
   * request is answered, not once its records are written: the next action starts in the same
   * turn, so its pending record and this settle's writes can share one commit (the recorder
   * groups by turn) instead of one commit each. Dependents still wait for the settle.
   */
  const settling = new Set<Promise<void>>();
  const track = (work: () => Promise<void> | undefined) => {
    let done: Promise<void> | undefined;
    try {
      done = work();
    } catch (error) {
      hookFailure ??= { error };
    }
    if (!done) return;
    const tracked: Promise<void> = done
      .catch((error: unknown) => {
        hookFailure ??= { error };
      })
      .finally(() => settling.delete(tracked));
    settling.add(tracked);
  };
  const detach = (a: Action, outcome: ActionOutcome, result?: ExecuteResult) =>
    track(() => settle(a, outcome, result));

  /**
   * Noops ready to settle, in the order they became ready: a noop sends nothing, so it takes no
   * place in the queue; they are settled one after the other in one loop (a resync of 100,000 in
   * sync made a closure and three promises each), which gives the event loop a turn whenever
   * `pause` asks for one. A noop scheduled before a stop still settles, as one sent would finish.
   */
  const noops: Action[] = [];
  let head = 0;
  let draining = false;
  const drain = async () => {
    draining = true;
    try {
      while (head < noops.length) {
        const turn = ports.pause?.();
        if (turn) await turn;
        const a = noops[head++]!;
        if (!outcomes.has(a.id)) detach(a, { status: 'succeeded', elapsedMs: 0 });
      }
    } finally {
      noops.length = 0;
      head = 0;
      draining = false;
    }
  };
  /** Settles the noops scheduled since the last call, unless the loop doing so is running. */
  const drainNoops = () => {
    if (!draining && head < noops.length) track(drain);
  };

  const run = async (a: Action) => {
    if (stopped() || outcomes.has(a.id)) return;
    // the fence: an action is sent only while this process may still write
    if (ports.canWrite && !ports.canWrite()) {
      fenced = true;
      return;
    }
    const started = ports.clock.now();
    await ports.beforeStart?.(a);
    ports.events?.({ type: 'start', action: a });
    let result: ExecuteResult;
    try {
      result = await ports.perform(a, (message, expectedMs) =>
        ports.events?.({
          type: 'progress',
          action: a,
          message,
          elapsedMs: ports.clock.now() - started,
          ...(expectedMs !== undefined ? { expectedMs } : {}),
        }),
      );
    } catch (err) {
      return detach(a, {
        status: 'failed',
        elapsedMs: ports.clock.now() - started,
        error: redact(err instanceof Error ? err.message : String(err)),
        code: err instanceof PlatctlError ? err.code : 'internal',
      });
    }
    detach(a, { status: 'succeeded', elapsedMs: ports.clock.now() - started }, result);
  };
  /**
   * Ready actions not yet handed to the queue, in the order they became ready. The queue holds at
   * most `concurrency` waiting beside the running ones, topped up as each ends (before the queue
   * starts its next): a first apply of 100,000 gave p-queue every ready create at once, a task
   * with its closures, promises and abort handler each (≈ 60 MB at 87,000), for the same order.
   */
  const backlog: Action[] = [];
  let next = 0;
  const topUp = () => {
    while (next < backlog.length && queue.size < concurrency) {
      const a = backlog[next++]!;
      void queue.add(() =>
        run(a)
          .catch((error: unknown) => {
            hookFailure ??= { error };
          })
          .finally(topUp),
      );
    }
    if (next === backlog.length) {
      backlog.length = 0;
      next = 0;
    }
  };
  const scheduled = new Set<string>();
  const schedule = (a: Action) => {
    if (stopped() || scheduled.has(a.id)) return;
    scheduled.add(a.id);
    if (a.type === 'noop') {
      noops.push(a);
      return;
    }
    backlog.push(a);
    topUp();
  };

  const ready = plan.actions.filter((a) => waiting.get(a.id) === 0);
  for (const a of ready) schedule(a);
  drainNoops();
  // a settle may schedule dependents, and a dependent may settle: wait until both are quiet
  while (queue.size > 0 || queue.pending > 0 || settling.size > 0 || next < backlog.length) {
    topUp();
    await queue.onIdle();
    await Promise.all(settling);
  }
  if (hookFailure) throw hookFailure.error;
  const ordered = new Map<string, ActionOutcome>();
  for (const a of plan.actions) {
    ordered.set(a.id, outcomes.get(a.id) ?? { status: 'not-started' });
  }
  return ordered;
}
