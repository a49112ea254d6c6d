import { printable, printableJson } from '../core/terminal-text.js';
import { rowLabel, type UsageReport, type UsageRow } from './report.js';

const num = (n: number) => n.toFixed(2);

/** The report as an aligned text table with a total line. Pure. */
export function renderTable(report: UsageReport): string {
  const costed = report.total.cost !== undefined;
  const head = [
    'PROJECT',
    report.rows.some((r) => r.instance !== undefined) ? 'INSTANCE' : '',
    'PROFILE',
    'HOURS',
    'GPU-HOURS',
    ...(costed ? [`COST (${report.currency})`] : []),
  ];
  // names are the platform's: printed escaped
  const line = (r: UsageRow) => [
    printable(r.project),
    printable(r.instance ?? ''),
    printable(r.profile),
    num(r.hours),
    num(r.gpuHours),
    ...(costed ? [r.cost === undefined ? '-' : num(r.cost)] : []),
  ];
  const total = [
    'TOTAL',
    '',
    '',
    num(report.total.hours),
    num(report.total.gpuHours),
    ...(costed ? [num(report.total.cost ?? 0)] : []),
  ];
  const table = [head, ...report.rows.map(line), total];
  const keep = head.map((h, i) => h !== '' || table.some((row) => row[i] !== ''));
  const cells = table.map((row) => row.filter((_, i) => keep[i]));
  const widths = cells[0]!.map((_, i) => Math.max(...cells.map((row) => row[i]!.length)));
  const numeric = (i: number) => i >= cells[0]!.length - (costed ? 3 : 2);
  return `${cells
    .map((row) =>
      row
        .map((c, i) => (numeric(i) ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
        .join('  ')
        .trimEnd(),
    )
    .join('\n')}\n`;
}

const csvCell = (v: string | number | undefined) => {
  // a control character is escaped like in the table (a CSV is often read on a terminal)
  const s = v === undefined ? '' : printable(String(v));
  return /[",\n\r]/.test(s) ? `"${s.replace(/"/g, '""')}"` : s;
};

/** RFC 4180 CSV, one line per row, no total line. Pure. */
export function renderCsv(report: UsageReport): string {
  const head = ['project', 'instance', 'profile', 'hours', 'gpu_hours', 'cost', 'currency'];
  const lines = report.rows.map((r) =>
    [
      r.project,
      r.instance,
      r.profile,
      num(r.hours),
      num(r.gpuHours),
      r.cost === undefined ? undefined : num(r.cost),
      r.cost === undefined ? undefined : report.currency,
    ]
      .map(csvCell)
      .join(','),
  );
  return `${[head.join(','), ...lines].join('\r\n')}\r\n`;
}

/** The report as one JSON document. Pure. */
export function renderJson(report: UsageReport): string {
  return `${printableJson(JSON.stringify(report, null, 2))}\n`;
}

const BLOCKS = ' ▏▎▍▌▋▊▉█';

/**
 * A horizontal bar chart of hours per row for a terminal (Unicode eighth blocks), `width`
 * columns for the longest bar. Pure.
 */
export function renderTerminalChart(report: UsageReport, width = 40): string {
  const max = Math.max(0, ...report.rows.map((r) => r.hours));
  if (max === 0) return '';
  const labels = report.rows.map((r) => printable(rowLabel(r)));
  const pad = Math.max(...labels.map((l) => l.length));
  return `${report.rows
    .map((r, i) => {
      const eighths = Math.round((r.hours / max) * width * 8);
      const bar = '█'.repeat(Math.floor(eighths / 8)) + (eighths % 8 ? BLOCKS[eighths % 8] : '');
      return `${labels[i]!.padEnd(pad)} │${bar} ${num(r.hours)}h`;
    })
    .join('\n')}\n`;
}
