import type { ActionOutcome } from '../model/action.js';
import type { Plan } from '../model/plan.js';
import type { StateStore } from '../state/types.js';

/** Runs the state store's history keeps (the controller's `HISTORY_SIZE`). */
const HISTORY_SIZE = 50;

/**
 * Records an apply that ran actions outside their change windows (`--outside-window`) in the run
 * history the controller also keeps and serves (`GET /api/v1/runs`): who reads the history sees
 * what ran outside its window and why (I/O). Nothing is written when no window was overridden.
 */
export async function recordOutsideWindow(
  state: Pick<StateStore, 'appendRun'>,
  run: {
    readonly runId: string;
    readonly startedAt: number;
    readonly endedAt: number;
    readonly status: string;
    readonly plan: Plan;
    readonly outcomes: ReadonlyMap<string, ActionOutcome>;
  },
): Promise<void> {
  const overridden = (run.plan.windows ?? []).filter((h) => h.outcome === 'overridden');
  if (overridden.length === 0) return;
  const changed = run.plan.actions.filter((a) => a.type !== 'noop');
  const status = (id: string) => run.outcomes.get(id)?.status ?? 'not-started';
  const done = changed.filter((a) => status(a.id) === 'succeeded');
  const failures = changed.flatMap((a) => {
    const o = run.outcomes.get(a.id);
    return o?.status === 'failed' ? [{ key: a.key, error: o.error }] : [];
  });
  const count = (t: string) => done.filter((a) => a.type === t).length;
  await state.appendRun(
    run.runId,
    {
      runId: run.runId,
      trigger: 'cli',
      startedAt: new Date(run.startedAt).toISOString(),
      durationMs: run.endedAt - run.startedAt,
      result: run.status === 'applied' || run.status === 'in-sync' ? 'succeeded' : 'failed',
      counts: {
        create: count('create'),
        update: count('update'),
        delete: count('delete'),
        other: done.length - count('create') - count('update') - count('delete'),
        failed: failures.length,
        skipped: changed.filter((a) => status(a.id) === 'skipped').length,
      },
      failures,
      outsideWindow: {
        reason: overridden[0]?.reason ?? '',
        actions: overridden.map((h) => ({ key: h.key, action: h.action, window: h.window })),
      },
      actions: changed.slice(0, 500).map((a) => ({
        key: a.key,
        type: a.type,
        reason: a.reason.code,
        outcome: status(a.id),
      })),
    },
    HISTORY_SIZE,
  );
}
