import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { rowLabel, type UsageReport } from './report.js';

/**
 * Chart.js's self-contained UMD build, read from the installed package (I/O, once): inlined into
 * the page so it renders offline, with no CDN.
 */
function chartLibrary(): string {
  const main = createRequire(import.meta.url).resolve('chart.js');
  return readFileSync(join(dirname(main), 'chart.umd.min.js'), 'utf8');
}

/** Text safe inside `<script>`: no `</script>` or `<!--` can end or confuse it. Pure. */
const inScript = (text: string) =>
  text.replace(/<\/(script)/gi, '<\\/$1').replace(/<!--/g, '<\\!--');
const html = (text: string) => text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

/**
 * A self-contained HTML page of the report (reads Chart.js from the package): a bar chart of
 * hours per row (Chart.js, inlined, animation off) above the table. `window.usageChart` is the
 * chart, `window.usageReport` the data, for anyone who wants to check one against the other.
 */
export function renderHtml(report: UsageReport, title = 'platctl usage'): string {
  const labels = report.rows.map(rowLabel);
  const data = { labels, report };
  const window = [report.from, report.to].filter(Boolean).join(' → ');
  const costed = report.total.cost !== undefined;
  const rows = report.rows
    .map(
      (r, i) =>
        `<tr><td>${html(labels[i]!)}</td><td>${html(r.profile)}</td><td>${r.hours.toFixed(2)}</td><td>${r.gpuHours.toFixed(2)}</td>${costed ? `<td>${r.cost?.toFixed(2) ?? '-'}</td>` : ''}</tr>`,
    )
    .join('\n');
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'">
<title>${html(title)}</title>
<style>
body { font-family: system-ui, sans-serif; margin: 2rem; color: #222; }
#chart-box { position: relative; height: ${Math.max(240, 28 * labels.length + 80)}px; max-width: 960px; }
table { border-collapse: collapse; margin-top: 1.5rem; }
th, td { padding: .25rem .75rem; border-bottom: 1px solid #ddd; text-align: left; }
td:nth-child(n+3), th:nth-child(n+3) { text-align: right; }
</style>
</head>
<body>
<h1>${html(title)}</h1>
<p>${html(window || 'current month')} · ${report.total.hours.toFixed(2)} hours · ${report.total.gpuHours.toFixed(2)} GPU-hours${costed ? ` · ${report.total.cost?.toFixed(2)} ${html(report.currency ?? '')}` : ''}</p>
<div id="chart-box"><canvas id="usage" role="img" aria-label="Hours per ${report.rows.some((r) => r.instance) ? 'instance' : 'profile'}"></canvas></div>
<table>
<thead><tr><th>Resource</th><th>Profile</th><th>Hours</th><th>GPU-hours</th>${costed ? `<th>Cost (${html(report.currency ?? '')})</th>` : ''}</tr></thead>
<tbody>
${rows}
</tbody>
</table>
<script>${inScript(chartLibrary())}</script>
<script>
window.usageReport = ${inScript(JSON.stringify(data))};
window.usageChart = new Chart(document.getElementById('usage'), {
  type: 'bar',
  data: {
    labels: window.usageReport.labels,
    datasets: [
      { label: 'Hours', data: window.usageReport.report.rows.map((r) => r.hours), backgroundColor: '#3b6fd8' },
      { label: 'GPU-hours', data: window.usageReport.report.rows.map((r) => r.gpuHours), backgroundColor: '#d8833b', hidden: true },
    ],
  },
  options: {
    indexAxis: 'y',
    animation: false,
    maintainAspectRatio: false,
    scales: { x: { beginAtZero: true, title: { display: true, text: 'hours' } } },
  },
});
</script>
</body>
</html>
`;
}
