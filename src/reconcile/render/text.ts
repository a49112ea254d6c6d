import pc from 'picocolors';
import { printable } from '../../core/terminal-text.js';
import type { Action, ActionOutcome } from '../../model/action.js';
import type { Plan } from '../../model/plan.js';
import { gpuLines } from '../gpu.js';
import { scheduleLines } from './schedules.js';
import {
  foundLine,
  leftLines,
  outcomeSummary,
  placeOf,
  policyLines,
  resources,
  summaryLine,
  unreadableLine,
  windowLines,
} from './summary.js';
import { changeLines } from './tree.js';

/** `42s`, `1m05s`, `2h03m` (pure). */
export function duration(ms: number): string {
  const s = Math.round(ms / 1000);
  if (s < 60) return `${s}s`;
  if (s < 3600) return `${Math.floor(s / 60)}m${String(s % 60).padStart(2, '0')}s`;
  return `${Math.floor(s / 3600)}h${String(Math.floor((s % 3600) / 60)).padStart(2, '0')}m`;
}

type Colors = Pick<typeof pc, 'green' | 'yellow' | 'red' | 'bold' | 'dim' | 'cyan'>;

/** Colors when `enabled`, plain text otherwise (not a TTY, NO_COLOR). */
export function colors(enabled: boolean): Colors {
  return pc.createColors(enabled);
}

const MARK = { create: '+', update: '~', delete: '-', unchanged: ' ' } as const;

/**
 * The plan for people (pure): the summary line, the GPU-hours (and cost) of the compute it creates
 * or deletes, the policy rules that did not pass, what was removed from git and left on the platform, then each changing resource with
 * its actions,
 * reasons and field-level differences (secrets masked), then the plan's diagnostics. Whatever came
 * from the manifests or the platform is printable (`core/terminal-text.ts`); only the colours
 * added here are escape sequences.
 */
export function renderPlanText(plan: Plan, c: Colors = colors(false)): string {
  const t = (s: string) => printable(s);
  const lines: string[] = [];
  const paint = { create: c.green, update: c.yellow, delete: c.red, unchanged: c.dim } as const;
  for (const r of resources(plan)) {
    if (r.change === 'unchanged') continue;
    lines.push(paint[r.change](`${MARK[r.change]} ${c.bold(t(r.key))}`));
    for (const a of r.actions) {
      lines.push(`    ${t(describe(a))} ${c.dim(`(${a.reason.code}: ${t(a.reason.message)})`)}`);
      for (const l of a.changes.flatMap(changeLines)) {
        lines.push(`${'    '.repeat(l.depth + 2)}${l.sign} ${t(l.text)}`);
      }
    }
  }
  for (const d of plan.diagnostics) {
    const label = d.severity === 'error' ? c.red('error') : c.yellow('warning');
    lines.push(`${t(placeOf(d))}${label}: ${d.key === '*' ? '' : `${t(d.key)}: `}${t(d.message)}`);
  }
  const found = foundLine(plan);
  if (found) lines.push(c.dim(`note: ${t(found)}`));
  const unread = unreadableLine(plan);
  if (unread) lines.push(`${c.red('error')}: ${t(unread)}`);
  const gpu = plan.gpu ? gpuLines(plan.gpu).map((l) => `  ${t(l)}`) : [];
  const policies = policyLines(plan).map((l) => `  ${t(l)}`);
  const schedules = scheduleLines(plan).map((l) => `  ${t(l)}`);
  const windows = windowLines(plan).map((l) => `  ${t(l)}`);
  const head = [
    summaryLine(plan),
    ...(gpu.length ? ['Compute:', ...gpu] : []),
    ...(policies.length ? ['Policies:', ...policies] : []),
    ...(schedules.length ? ['Schedules:', ...schedules] : []),
    ...(windows.length ? ['Change windows:', ...windows] : []),
    ...leftLines(plan).map(t),
  ];
  return `${[...head, ...(lines.length ? ['', ...lines] : [])].join('\n')}\n`;
}

/** What one action does, in a few words. */
export function describe(a: Action): string {
  switch (a.type) {
    case 'create':
    case 'update':
    case 'publish':
    case 'delete':
    case 'noop':
    case 'force-sync':
    case 'enable-version':
    case 'disable-version':
      return a.type;
    case 'power':
      return `power ${a.powerAction}`;
    case 'assign':
    case 'unassign':
      return `${a.type} ${a.roles.map((r) => r.name).join(', ')}`;
    case 'add-groups':
    case 'remove-groups':
      return `${a.type} ${a.groups.map((g) => g.name).join(', ')}`;
    case 'controller-update':
      return `update ${a.component} to ${a.version}`;
    default: {
      const never: never = a;
      return String((never as Action).type);
    }
  }
}

/**
 * The apply summary (pure): counts (and how long the apply took, when given), then each failure
 * once with how many actions it skipped.
 */
export function renderOutcomesText(
  outcomes: Readonly<Record<string, ActionOutcome>>,
  c: Colors = colors(false),
  durationMs?: number,
): string {
  const { counts, failures } = outcomeSummary(outcomes);
  const took = durationMs === undefined ? '' : `, in ${duration(durationMs)}`;
  const lines = [
    `Apply: ${counts.succeeded} succeeded, ${counts.failed} failed, ${counts.skipped} skipped, ${counts['not-started']} not started${took}.`,
  ];
  for (const f of failures) {
    const tail = f.skipped
      ? ` (${f.skipped} dependent action${f.skipped === 1 ? '' : 's'} skipped)`
      : '';
    lines.push(`${c.red('failed')}: ${printable(f.id)}: ${printable(f.error)}${tail}`);
  }
  return `${lines.join('\n')}\n`;
}
