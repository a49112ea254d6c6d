import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { ControllerMetrics } from '../../src/controller/status/metrics.js';

/** The runbook's metrics table: first cell's metric name -> the row's cells. */
function documented(): Map<string, string[]> {
  const text = readFileSync(new URL('../../docs/operations.md', import.meta.url), 'utf8');
  const section = text.slice(text.indexOf('## Metrics and alerts'));
  const rows = new Map<string, string[]>();
  for (const line of section.split('\n')) {
    const m = /^\| `(platctl_[a-z_]+)/.exec(line);
    if (m?.[1])
      rows.set(
        m[1],
        line.split(/(?<!\\)\|/).map((c) => c.trim()),
      );
  }
  return rows;
}

describe('docs/operations.md metrics table', () => {
  it('documents every platctl_ metric the controller serves, each with a meaning and an alert', async () => {
    const served = (await new ControllerMetrics().registry.getMetricsAsJSON())
      .map((m) => m.name)
      .filter((n) => n.startsWith('platctl_'));
    expect(served).toContain('platctl_loop_last_heartbeat_seconds');
    const rows = documented();
    for (const name of served) {
      const cells = rows.get(name);
      expect(cells, `${name} is not in the runbook's table`).toBeDefined();
      const [, , meaning, alert] = cells ?? [];
      expect(meaning, `${name}: meaning`).not.toBe('');
      expect(alert, `${name}: suggested alert`).not.toBe('');
    }
    // and nothing documented that is not served
    for (const name of rows.keys()) expect(served).toContain(name);
  });
});
