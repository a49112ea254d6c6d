/**
 * Wall-clock time in an IANA time zone, on Node's own `Intl` (no Temporal, no tz database of our
 * own). An instant is epoch ms; a *local* time is the same count read as if the zone were UTC
 * (`Date.UTC(y, m - 1, d, h, min)`), so calendar arithmetic on it never meets a DST change. Pure.
 */

const DAY_MS = 86_400_000;

const formats = new Map<string, Intl.DateTimeFormat>();

/** The zone's formatter (cached); throws a RangeError for a zone Intl does not know. */
function formatOf(zone: string): Intl.DateTimeFormat {
  let f = formats.get(zone);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: zone,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
    formats.set(zone, f);
  }
  return f;
}

/** True when `zone` is an IANA time zone this Node knows (`Europe/Berlin`, `UTC`). */
export function isTimeZone(zone: string): boolean {
  try {
    formatOf(zone);
    return true;
  } catch {
    return false;
  }
}

/** The local time (see the module comment) of an instant in `zone`, to the second. */
export function localOf(instant: number, zone: string): number {
  const parts: Record<string, number> = {};
  for (const p of formatOf(zone).formatToParts(instant)) {
    if (p.type !== 'literal') parts[p.type] = Number(p.value);
  }
  const { year = 0, month = 1, day = 1, hour = 0, minute = 0, second = 0 } = parts;
  return Date.UTC(year, month - 1, day, hour, minute, second);
}

/** The zone's offset from UTC at an instant, in ms (+3600000 for CET). */
function offsetAt(instant: number, zone: string): number {
  const whole = Math.floor(instant / 1000) * 1000;
  return localOf(whole, zone) - whole;
}

/**
 * The instant of a local time in `zone`, disambiguated as Temporal's `compatible` does: a local
 * time that happens twice (the hour a clock goes back) is its earlier instant; one that never
 * happens (the hour a clock skips) is moved forward by the gap (02:30 on the night Berlin goes
 * from 02:00 to 03:00 is 03:30 CEST). Assumes at most one offset change within a day of it.
 */
export function instantOf(local: number, zone: string): number {
  const before = offsetAt(local - DAY_MS, zone);
  const after = offsetAt(local + DAY_MS, zone);
  const valid = [local - before, local - after].filter((t) => localOf(t, zone) === local);
  if (valid.length > 0) return Math.min(...valid);
  return local - before;
}

/** Local midnight of the local day holding `local` (a local time). */
export function localDay(local: number): number {
  return Math.floor(local / DAY_MS) * DAY_MS;
}

/** The ISO weekday of a local time: 1 Monday … 7 Sunday. */
export function isoWeekday(local: number): number {
  return ((new Date(local).getUTCDay() + 6) % 7) + 1;
}

const two = (n: number) => String(n).padStart(2, '0');

/** `2026-11-26T08:00+01:00`: an instant as the zone's wall clock, to the minute, with its offset. */
export function zonedText(instant: number, zone: string): string {
  const local = new Date(localOf(instant, zone));
  const offset = Math.round(offsetAt(instant, zone) / 60_000);
  const sign = offset < 0 ? '-' : '+';
  const abs = Math.abs(offset);
  return `${local.toISOString().slice(0, 16)}${sign}${two(Math.floor(abs / 60))}:${two(abs % 60)}`;
}

/** A wall-clock reading in a zone, as change windows read one. */
export interface WallTime {
  readonly year: number;
  /** 1–12. */
  readonly month: number;
  readonly day: number;
  readonly hour: number;
  readonly minute: number;
  /** 0 = Sunday … 6 = Saturday. */
  readonly weekday: number;
}

/** The wall clock in `zone` at an instant (throws a RangeError for an unknown zone). */
export function wallTime(instant: number, zone: string): WallTime {
  const d = new Date(localOf(instant, zone));
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    weekday: d.getUTCDay(),
  };
}

/**
 * The instant `zone`'s wall clock shows `year-month-day hour:minute`, disambiguated as
 * {@link instantOf}; fields past their range roll over (`day: 32` is the next month's first).
 */
export function wallInstant(
  wall: Pick<WallTime, 'year' | 'month' | 'day' | 'hour' | 'minute'>,
  zone: string,
): number {
  return instantOf(Date.UTC(wall.year, wall.month - 1, wall.day, wall.hour, wall.minute), zone);
}

export { DAY_MS };
