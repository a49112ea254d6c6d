import type { Plan } from '../model/plan.js';

// The variables a Policy rule's expression reads besides the manifest: `action` and `plan`. Pure.

/** Billed hours and GPU-hours per project since the month began (`plan.usage.<project>`). */
export type BilledUsage = Readonly<Record<string, { hours: number; gpuHours: number }>>;

/** Each key's planned action type: its first that is not a noop, else `noop`. */
export function actionTypes(plan: Plan): Map<string, string> {
  const out = new Map<string, string>();
  for (const a of plan.actions) {
    if (!out.has(a.key) || out.get(a.key) === 'noop') out.set(a.key, a.type);
  }
  return out;
}

/**
 * The `plan` variable: counts by type, by kind and type, by project and type; deletes; GPUs;
 * the cost they add (with a price file); this month's billed usage per project (when read).
 */
export function planVariable(plan: Plan, usage?: BilledUsage): Record<string, unknown> {
  const actions: Record<string, number> = {};
  const byKind: Record<string, Record<string, number>> = {};
  const byProject: Record<string, Record<string, number>> = {};
  const deletes: string[] = [];
  const bump = (o: Record<string, Record<string, number>>, k: string, t: string) => {
    const inner = o[k] ?? {};
    o[k] = inner;
    inner[t] = (inner[t] ?? 0) + 1;
  };
  for (const a of plan.actions) {
    actions[a.type] = (actions[a.type] ?? 0) + 1;
    bump(byKind, a.target.kind, a.type);
    if (a.target.project !== undefined) bump(byProject, a.target.project, a.type);
    if (a.type === 'delete') deletes.push(a.key);
  }
  const changes = plan.gpu?.changes ?? [];
  const perDay = changes.reduce((n, c) => n + (c.gpuHoursPerDay ?? 0), 0);
  const perMonth = changes.reduce((n, c) => n + (c.gpuHoursPerMonth ?? 0), 0);
  const priced = changes.filter((c) => c.costPerDay !== undefined);
  const cost = priced.length
    ? {
        cost: {
          perDay: priced.reduce((n, c) => n + (c.costPerDay ?? 0), 0),
          perMonth: priced.reduce((n, c) => n + (c.costPerMonth ?? 0), 0),
          currency: plan.gpu?.currency ?? '',
        },
      }
    : {};
  return {
    actions,
    byKind,
    byProject,
    deletes,
    ...cost,
    ...(usage ? { usage } : {}),
    gpu: {
      instances: changes.reduce((n, c) => n + c.instances, 0),
      gpus: perDay / 24,
      gpuHoursPerDay: perDay,
      gpuHoursPerMonth: perMonth,
    },
  };
}
