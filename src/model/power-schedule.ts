import type {
  PowerPeriod,
  PowerScheduleManifest,
  PowerSelector,
  Weekday,
} from './governance-kinds.js';
import type { Manifest } from './manifest.js';
import { DAY_MS, instantOf, isoWeekday, localDay, localOf } from './zoned-time.js';

/** Schedules' days in ISO order: index + 1 is the ISO weekday. */
const WEEKDAYS: readonly Weekday[] = ['Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat', 'Sun'];

/** A change of the wanted power state. */
interface PowerTransition {
  /** Epoch ms. */
  readonly at: number;
  readonly state: 'on' | 'off';
}

/** What a schedule wants of one instance at one instant, and what it will want next. */
export interface PowerDecision {
  readonly state: 'on' | 'off';
  /** `period`: inside one; `outside`: in none; `keep-on`: outside, kept on by the exception. */
  readonly why: 'period' | 'outside' | 'keep-on';
  /** The next changes, soonest first (none when the state never changes). */
  readonly next: readonly PowerTransition[];
}

type ScheduleSpec = PowerScheduleManifest['spec'];

/** Minutes after midnight of `HH:MM` (`24:00` is 1440); NaN when it is not one. */
export function minutesOf(time: string): number {
  const m = /^([01]\d|2[0-3]):([0-5]\d)$|^24:00$/.exec(time);
  if (!m) return Number.NaN;
  return m[1] === undefined ? 1440 : Number(m[1]) * 60 + Number(m[2]);
}

/**
 * The weekly minutes a period covers, as `[from, to)` pairs within one week (0 is Monday 00:00
 * local; a period past Sunday midnight wraps to Monday). For the checks at validate: overlaps and
 * empty periods are judged on the wall clock, not on instants. Pure.
 */
export function weeklyRanges(p: PowerPeriod): [number, number][] {
  const start = minutesOf(p.start);
  const stop = minutesOf(p.stop);
  const length = stop > start ? stop - start : stop + 1440 - start;
  const week = 7 * 1440;
  return p.days.flatMap((d): [number, number][] => {
    const from = WEEKDAYS.indexOf(d) * 1440 + start;
    const to = from + length;
    return to <= week
      ? [[from, to]]
      : [
          [from, week],
          [0, to - week],
        ];
  });
}

/**
 * The instants a schedule's periods are on between `from` and `to`, merged and sorted: each
 * occurrence's local start and stop turned into instants in the zone (DST: see `instantOf`), so a
 * 08:00–20:00 period lasts 11 or 13 hours on the days the clock changes. Pure.
 */
function onIntervals(spec: ScheduleSpec, from: number, to: number): [number, number][] {
  const zone = spec.timeZone;
  const first = localDay(localOf(from, zone)) - DAY_MS;
  const last = localDay(localOf(to, zone)) + DAY_MS;
  const out: [number, number][] = [];
  for (let day = first; day <= last; day += DAY_MS) {
    const weekday = WEEKDAYS[isoWeekday(day) - 1]!;
    for (const p of spec.periods) {
      if (!p.days.includes(weekday)) continue;
      const start = minutesOf(p.start);
      const stop = minutesOf(p.stop);
      const end = stop > start ? day + stop * 60_000 : day + DAY_MS + stop * 60_000;
      out.push([instantOf(day + start * 60_000, zone), instantOf(end, zone)]);
    }
  }
  out.sort((a, b) => a[0] - b[0]);
  const merged: [number, number][] = [];
  for (const [s, e] of out) {
    const prev = merged.at(-1);
    if (prev && s <= prev[1]) prev[1] = Math.max(prev[1], e);
    else if (e > s) merged.push([s, e]);
  }
  return merged;
}

/**
 * What `spec` wants of an instance at `at` (epoch ms): on inside a period, off outside, on until
 * `keepOnUntil` (the instance's exception) when that is later; with its next `count` transitions
 * (looked for over the 8 days past `at`, or past the exception). Periods are `[start, stop)`: at
 * a period's start it is on, at its stop off. Pure.
 */
export function decidePower(
  spec: ScheduleSpec,
  at: number,
  keepOnUntil?: number,
  count = 2,
): PowerDecision {
  const keep = keepOnUntil !== undefined && keepOnUntil > at ? keepOnUntil : undefined;
  const horizon = Math.max(at, keep ?? at) + 8 * DAY_MS;
  const intervals = onIntervals(spec, at, horizon);
  const inside = (t: number) => intervals.some(([s, e]) => s <= t && t < e);
  const stateAt = (t: number): 'on' | 'off' =>
    (keep !== undefined && t < keep) || inside(t) ? 'on' : 'off';
  const candidates = [...intervals.flat(), ...(keep === undefined ? [] : [keep])]
    .filter((t) => t > at && t <= horizon)
    .sort((a, b) => a - b);
  const next: PowerTransition[] = [];
  let state = stateAt(at);
  for (const t of candidates) {
    if (next.length >= count) break;
    const s = stateAt(t);
    if (s !== state) next.push({ at: t, state: s });
    state = s;
  }
  const why = inside(at) ? 'period' : stateAt(at) === 'on' ? 'keep-on' : 'outside';
  return { state: stateAt(at), why, next };
}

/**
 * The share of the week from `at` that `spec` keeps instances off (0 to 1), on the instants of
 * that week (a DST week counts its 167 or 169 hours). Pure.
 */
export function offShare(spec: ScheduleSpec, at: number): number {
  const end = at + 7 * DAY_MS;
  let on = 0;
  for (const [s, e] of onIntervals(spec, at, end)) {
    on += Math.max(0, Math.min(e, end) - Math.max(s, at));
  }
  return 1 - on / (end - at);
}

/**
 * True when `selector` selects `m`: a ComputeInstance meeting every criterion given (each label
 * given, with its value; any of the names, globs with `*`; any of the workspaces; any of the
 * projects). Pure.
 */
export function selects(selector: PowerSelector, m: Manifest): boolean {
  if (m.kind !== 'ComputeInstance') return false;
  const { name, project, workspace, labels = {} } = m.metadata;
  if (selector.projects && !selector.projects.includes(project)) return false;
  if (selector.workspaces && !selector.workspaces.includes(workspace)) return false;
  if (selector.names && !selector.names.some((n) => globMatches(n, name))) return false;
  for (const [k, v] of Object.entries(selector.labels ?? {})) if (labels[k] !== v) return false;
  return true;
}

function globMatches(glob: string, name: string): boolean {
  if (!glob.includes('*')) return glob === name;
  const body = glob
    .split('*')
    .map((t) => t.replace(/[.+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${body}$`).test(name);
}
