import { printable } from '../../core/terminal-text.js';
import type { FieldChange } from '../../model/action.js';
import type { Plan } from '../../model/plan.js';
import { gpuLines } from '../gpu.js';
import { scheduleLines } from './schedules.js';
import {
  foundLine,
  masked,
  placeOf,
  policyLines,
  resources,
  show,
  summaryLine,
  unreadableLine,
  windowLines,
} from './summary.js';
import { describe } from './text.js';
import { changeLines } from './tree.js';

/** GitHub's comment limit is 65,536 characters; stay clearly under it. */
const MARKDOWN_LIMIT = 65_000;

/**
 * The plan as a pull-request comment (pure): the summary first, deletions called out, one
 * collapsible `<details>` per changing resource, cut with a note to stay under `limit`.
 */
export function renderPlanMarkdown(plan: Plan, limit = MARKDOWN_LIMIT): string {
  const views = resources(plan).filter((r) => r.change !== 'unchanged');
  const head: string[] = ['### platctl plan', '', `**${summaryLine(plan)}**`, ''];
  if (plan.gpu) {
    head.push('**Compute**', '', ...gpuLines(plan.gpu).map((l) => `- ${escapeHtml(l)}`), '');
  }
  const policies = policyLines(plan);
  if (policies.length) {
    head.push('**Policies**', '', ...policies.map((l) => `- ${escapeHtml(l)}`), '');
  }
  const schedules = scheduleLines(plan);
  if (schedules.length) {
    head.push('**Schedules**', '', ...schedules.map((l) => `- ${escapeHtml(l)}`), '');
  }
  const windows = windowLines(plan);
  if (windows.length) {
    head.push('**Change windows**', '', ...windows.map((l) => `- ${escapeHtml(l)}`), '');
  }
  const left = plan.leftOnPlatform;
  if (left) {
    const keys = left.keys.map((k) => `\`${printable(k)}\``).join(', ');
    const kept = left.gpu ? gpuLines(left.gpu, true).map((l) => `> - ${escapeHtml(l)}`) : [];
    head.push(
      '> [!WARNING]',
      `> ${left.keys.length} resource(s) **left on the platform**: ${escapeHtml(left.message)}`,
      '>',
      `> ${keys}`,
      ...(kept.length ? ['>', '> Still running:', '>', ...kept] : []),
      '',
    );
  }
  const deletions = views.filter((r) => r.change === 'delete');
  if (deletions.length) {
    head.push(`> [!WARNING]`, `> ${deletions.length} resource(s) will be **deleted**:`);
    for (const d of deletions) head.push(`> - \`${printable(d.key)}\``);
    head.push('');
  }
  for (const d of plan.diagnostics)
    head.push(
      `- **${d.severity}** ${escapeHtml(placeOf(d))}\`${printable(d.key)}\`: ${escapeHtml(d.message)}`,
    );
  if (plan.diagnostics.length) head.push('');
  const found = foundLine(plan);
  if (found) head.push(`- **note**: ${escapeHtml(found)}`, '');
  const unread = unreadableLine(plan);
  if (unread) head.push(`- **error**: ${escapeHtml(unread)}`, '');
  let out = head.join('\n');
  for (const [i, r] of views.entries()) {
    const body: string[] = [
      `<details><summary><code>${r.change}</code> ${escapeHtml(r.key)}</summary>`,
      '',
    ];
    for (const a of r.actions) {
      body.push(
        `- **${escapeHtml(describe(a))}** — ${a.reason.code}: ${escapeHtml(a.reason.message)}`,
      );
      if (a.changes.length) {
        body.push('', '  ```diff');
        for (const ch of a.changes) body.push(...diffLines(ch));
        body.push('  ```');
      }
    }
    body.push('', '</details>', '');
    const section = body.join('\n');
    const note = `\n_Output cut: ${views.length - i} more resource(s) not shown; run \`platctl plan\` for the full plan._\n`;
    if (out.length + section.length + note.length > limit) return out + note;
    out += section;
  }
  return out;
}

/** A change as diff lines: the sign first (so it is colored), then the nesting. */
function diffLines(ch: FieldChange): string[] {
  if (ch.op === 'replace') {
    const m = masked(ch);
    return [
      `  - ${printable(m.path)}: ${printable(show(m.before))}`,
      `  + ${printable(m.path)}: ${printable(show(m.after))}`,
    ];
  }
  return changeLines(ch).map((l) => `  ${l.sign} ${'    '.repeat(l.depth)}${printable(l.text)}`);
}

/** HTML's three specials escaped, and control characters (`core/terminal-text.ts`). */
function escapeHtml(s: string): string {
  return printable(s).replace(/[<>&]/g, (ch) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;' })[ch]!);
}
