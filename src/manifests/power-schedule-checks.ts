import type { PowerPeriod, PowerScheduleManifest } from '../model/governance-kinds.js';
import type { LoadedManifest } from '../model/manifest.js';
import { minutesOf, selects, weeklyRanges } from '../model/power-schedule.js';
import { isTimeZone } from '../model/zoned-time.js';
import type { Diagnostic } from './diagnostics.js';

type Schedule = LoadedManifest<PowerScheduleManifest>;

/**
 * The checks of every PowerSchedule at validate, each at its field's `file:line:col` (code
 * `power-schedule`): a time zone Intl does not know, a period whose start is its stop, periods
 * that overlap on the wall clock (errors); an instance selected by two schedules (an error at the
 * later schedule's selector); a selector that selects no ComputeInstance of the set (a warning).
 * The times' form (`HH:MM`) is the schema's. Pure.
 */
export function powerScheduleChecks(manifests: readonly LoadedManifest[]): Diagnostic[] {
  const schedules = manifests.filter((m): m is Schedule => m.manifest.kind === 'PowerSchedule');
  if (schedules.length === 0) return [];
  const instances = manifests.filter((m) => m.manifest.kind === 'ComputeInstance');
  const out: Diagnostic[] = [];
  const at = (m: Schedule, path: (string | number)[], severity: 'error' | 'warning' = 'error') => ({
    severity,
    code: 'power-schedule' as const,
    key: m.key,
    path: path.map((p, i) => (typeof p === 'number' ? `[${p}]` : i ? `.${p}` : p)).join(''),
    ...m.positionOf(path),
  });
  const owner = new Map<string, string>();
  for (const m of schedules) {
    const { timeZone, periods, selector } = m.manifest.spec;
    if (!isTimeZone(timeZone)) {
      out.push({
        ...at(m, ['spec', 'timeZone']),
        message: `time zone ${JSON.stringify(timeZone)} is not an IANA time zone (for example Europe/Berlin, America/New_York, UTC)`,
      });
    }
    out.push(
      ...periodChecks(periods).map(([i, message]) => ({
        ...at(m, ['spec', 'periods', i]),
        message,
      })),
    );
    const selected = instances.filter((i) => selects(selector, i.manifest));
    if (selected.length === 0) {
      out.push({
        ...at(m, ['spec', 'selector'], 'warning'),
        message: `schedule ${m.manifest.metadata.name} selects no ComputeInstance of these manifests`,
      });
    }
    for (const i of selected) {
      const first = owner.get(i.key);
      if (first === undefined) {
        owner.set(i.key, m.manifest.metadata.name);
        continue;
      }
      out.push({
        ...at(m, ['spec', 'selector']),
        message: `${i.key} is already selected by schedule ${first}: an instance follows one schedule`,
      });
    }
  }
  return out;
}

const describe = (p: PowerPeriod) => `${p.days.join(',')} ${p.start}–${p.stop}`;

/** `[index, message]` of each empty period and each period overlapping an earlier one. Pure. */
function periodChecks(periods: readonly PowerPeriod[]): [number, string][] {
  const out: [number, string][] = [];
  const ranges = periods.map((p) => weeklyRanges(p));
  periods.forEach((p, i) => {
    if (minutesOf(p.start) === minutesOf(p.stop)) {
      out.push([i, `period ${describe(p)} is empty: its start is its stop`]);
      return;
    }
    const j = ranges.findIndex(
      (other, k) =>
        k < i &&
        minutesOf(periods[k]!.start) !== minutesOf(periods[k]!.stop) &&
        other.some(([a, b]) => ranges[i]!.some(([c, d]) => a < d && c < b)),
    );
    if (j >= 0) {
      out.push([i, `period ${describe(p)} overlaps period ${j + 1} (${describe(periods[j]!)})`]);
    }
  });
  return out;
}
