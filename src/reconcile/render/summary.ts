import type { Action, ActionOutcome, FieldChange } from '../../model/action.js';
import type { Plan, PlanDiagnostic, PlanSummary } from '../../model/plan.js';
import { gpuLines } from '../gpu.js';

/** The kind of change a resource undergoes, from all its actions. */
type ResourceChange = 'create' | 'update' | 'delete' | 'unchanged';

/** One resource's actions, grouped for display. */
export interface ResourceView {
  readonly key: string;
  readonly change: ResourceChange;
  readonly actions: readonly Action[];
}

/** Groups a plan's actions by resource, in plan order (pure). */
export function resources(plan: Plan): ResourceView[] {
  const byKey = new Map<string, Action[]>();
  for (const a of plan.actions) byKey.set(a.key, [...(byKey.get(a.key) ?? []), a]);
  return [...byKey].map(([key, actions]) => ({ key, actions, change: changeOf(actions) }));
}

function changeOf(actions: readonly Action[]): ResourceChange {
  if (actions.some((a) => a.type === 'create')) return 'create';
  // what only exists once these actions run (an assignment, a publish, an enabled version) is
  // added, not changed
  const changing = actions.filter((a) => a.type !== 'noop');
  if (changing.length > 0 && changing.every((a) => a.reason.code === 'absent')) return 'create';
  if (actions.some((a) => a.type === 'delete')) return 'delete';
  if (actions.some((a) => a.type !== 'noop')) return 'update';
  return 'unchanged';
}

/** `file:line:col: ` of a diagnostic that has a place in the manifests, else `` (pure). */
export function placeOf(d: Pick<PlanDiagnostic, 'file' | 'line' | 'col'>): string {
  if (d.file === undefined) return '';
  return `${d.file}${d.line === undefined ? '' : `:${d.line}${d.col === undefined ? '' : `:${d.col}`}`}: `;
}

/**
 * One line per policy rule that did not pass (pure): effect, outcome when approved, rule, the
 * manifest and where it is, and the rule's message.
 */
export function policyLines(plan: Plan): string[] {
  return (plan.policies ?? []).map((p) => {
    const what = p.outcome === 'approved' ? `${p.effect} (approved)` : p.effect;
    return `${what} ${p.rule} (${p.policy}): ${p.key}${p.file === undefined ? '' : ` at ${placeOf(p).slice(0, -2)}`}: ${p.message}`;
  });
}

/**
 * One line per action outside its change window (pure): what, the window, until when, and what
 * becomes of it (held, refused, applied anyway with the reason).
 */
export function windowLines(plan: Plan): string[] {
  return (plan.windows ?? []).map((h) => {
    const type = h.action.split('#')[1] ?? h.class;
    const until = h.until ? `held until ${h.until}` : 'no opening in the next two weeks';
    const what =
      h.outcome === 'overridden'
        ? `applied outside the window: ${h.reason}`
        : h.outcome === 'refused'
          ? `refused (${until}; apply --outside-window "<reason>")`
          : until;
    return `${type} ${h.key}: ${h.window}, ${what}`;
  });
}

/** Counts resources by change (pure). */
export function summarize(plan: Plan): PlanSummary {
  const counts = { create: 0, update: 0, delete: 0, unchanged: 0 };
  for (const r of resources(plan)) counts[r.change]++;
  return counts;
}

/** `Plan: 3 to create, 1 to update, 0 to delete, 12 unchanged.` or `No changes.` */
export function summaryLine(plan: Plan): string {
  const s = summarize(plan);
  if (s.create + s.update + s.delete === 0) {
    return `No changes. ${s.unchanged} resource${s.unchanged === 1 ? '' : 's'} in sync.`;
  }
  return `Plan: ${s.create} to create, ${s.update} to update, ${s.delete} to delete, ${s.unchanged} unchanged.`;
}

/**
 * `found, not created by platctl (never pruned): A, B` for the plan's found keys, at most `max`
 * named, or undefined when there are none (pure).
 */
export function foundLine(plan: Plan, max = 20): string | undefined {
  return keysLine('found, not created by platctl (never pruned)', plan.found, max);
}

/**
 * The plan's objects left on the platform for people (pure): a head line, what their compute
 * keeps running (one line a profile), and how to adopt, delete or forget them; [] when none.
 */
export function leftLines(plan: Plan, max = 20): string[] {
  const left = plan.leftOnPlatform;
  if (!left) return [];
  const n = left.keys.length;
  const more = n > max ? `, and ${n - max} more` : '';
  return [
    `Left on the platform: ${n} removed from git but not created by this state, never pruned: ${left.keys.slice(0, max).join(', ')}${more}`,
    ...(left.gpu ? ['  Still running:', ...gpuLines(left.gpu, true).map((l) => `    ${l}`)] : []),
    `  ${left.message.replace(/^[^.]*\. /, '')}`,
  ];
}

/**
 * `incomplete: the live state of N resources could not be read, nothing planned for them: A, B`,
 * or undefined when every read succeeded (pure).
 */
export function unreadableLine(plan: Plan, max = 20): string | undefined {
  const n = plan.unreadable?.length ?? 0;
  const what = `the live state of ${n} resource${n === 1 ? '' : 's'} could not be read`;
  return keysLine(`incomplete: ${what}, nothing planned for them`, plan.unreadable, max);
}

function keysLine(label: string, keys: readonly string[] = [], max: number): string | undefined {
  if (keys.length === 0) return undefined;
  const more = keys.length > max ? ` and ${keys.length - max} more` : '';
  return `${label}: ${keys.slice(0, max).join(', ')}${more}`;
}

const SECRET = /pass(word)?|secret|token|api[-_]?key|credential/i;

/** A field change with secret-looking values replaced by `(sensitive)` (pure). */
export function masked(c: FieldChange): FieldChange {
  if (!SECRET.test(c.path) || /passwordFrom/.test(c.path)) return c;
  return {
    ...c,
    ...('before' in c ? { before: '(sensitive)' } : {}),
    ...('after' in c ? { after: '(sensitive)' } : {}),
  };
}

/** Counts outcomes and lists failures once, at their root, with how many they skipped (pure). */
export function outcomeSummary(outcomes: Readonly<Record<string, ActionOutcome>>) {
  const counts = { succeeded: 0, failed: 0, skipped: 0, 'not-started': 0 };
  const skippedBy = new Map<string, number>();
  for (const [id, o] of Object.entries(outcomes)) {
    if (id.endsWith('#noop')) continue;
    counts[o.status]++;
    if (o.status === 'skipped') skippedBy.set(o.because, (skippedBy.get(o.because) ?? 0) + 1);
  }
  const failures = Object.entries(outcomes).flatMap(([id, o]) =>
    o.status === 'failed'
      ? [{ id, error: o.error, code: o.code, skipped: skippedBy.get(id) ?? 0 }]
      : [],
  );
  return { counts, failures };
}

/** A value for one line of text. */
export function show(v: unknown): string {
  if (v === undefined) return '(none)';
  const s = typeof v === 'string' ? JSON.stringify(v) : JSON.stringify(v);
  return s.length > 120 ? `${s.slice(0, 117)}...` : s;
}
