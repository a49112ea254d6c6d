import { printableJson } from '../../core/terminal-text.js';
import type { ActionOutcome } from '../../model/action.js';
import type { Plan } from '../../model/plan.js';
import { masked, summarize } from './summary.js';

/**
 * The stable JSON form of a plan (pure), documented in docs/plan-format.md: `formatVersion`,
 * `summary`, `actions` (secrets masked), `diagnostics`, `found`, `leftOnPlatform` (found objects
 * removed from git), `unreadable`, `gpu` (compute created, deleted or resized), `policies` (rules
 * that did not pass), `schedules` (what each PowerSchedule wants of its instances, and next), `windows` (actions outside their change window), and `outcomes` after an apply. Control characters JSON leaves raw (C1,
 * bidirectional) are `\u` escapes.
 */
export function renderPlanJson(
  plan: Plan,
  outcomes?: Readonly<Record<string, ActionOutcome>>,
): string {
  const doc = {
    formatVersion: plan.formatVersion,
    summary: summarize(plan),
    actions: plan.actions.map((a) => ({ ...a, changes: a.changes.map(masked) })),
    diagnostics: plan.diagnostics,
    ...(plan.found ? { found: plan.found } : {}),
    ...(plan.leftOnPlatform ? { leftOnPlatform: plan.leftOnPlatform } : {}),
    ...(plan.unreadable ? { unreadable: plan.unreadable } : {}),
    ...(plan.gpu ? { gpu: plan.gpu } : {}),
    ...(plan.policies ? { policies: plan.policies } : {}),
    ...(plan.schedules ? { schedules: plan.schedules } : {}),
    ...(plan.windows ? { windows: plan.windows } : {}),
    ...(outcomes ? { outcomes } : {}),
  };
  return `${printableJson(JSON.stringify(doc, null, 2))}\n`;
}
