import { printable as plain } from '../core/terminal-text.js';
import type { DoctorReport } from './checks.js';

const MARK = { ok: 'ok', warn: 'WARN', fail: 'FAIL', skip: 'skip' } as const;

/** The report as a table with a fix under each failed or warned line, then the verdict. Pure. */
export function renderDoctor(report: DoctorReport, baseUrl: string): string {
  const width = Math.max(...report.checks.map((c) => c.check.length), 5);
  const lines = [`platctl doctor: ${plain(baseUrl)}`, ''];
  for (const c of report.checks) {
    lines.push(`  ${MARK[c.status].padEnd(4)}  ${c.check.padEnd(width)}  ${plain(c.detail)}`);
    if (c.fix) lines.push(`  ${''.padEnd(4)}  ${''.padEnd(width)}  fix: ${plain(c.fix)}`);
  }
  const failed = report.checks.filter((c) => c.status === 'fail').length;
  lines.push('');
  lines.push(
    report.recommended
      ? `Dialect that fits: ${report.recommended}.`
      : 'No dialect fits: the platform could not be read.',
  );
  lines.push(failed === 0 ? 'Ready to plan and apply.' : `${failed} check(s) failed.`);
  return `${lines.join('\n')}\n`;
}

/** The report for programs. Pure. */
export function doctorJson(report: DoctorReport, baseUrl: string): string {
  const ok = !report.checks.some((c) => c.status === 'fail');
  return `${JSON.stringify({ baseUrl, ok, ...report }, null, 2)}\n`;
}
