import { localInstant } from '../manifests/index.js';
import type { ChangeWindowManifest, WindowPeriod } from '../model/governance-kinds.js';
import { wallInstant, wallTime } from '../model/zoned-time.js';

type Spec = ChangeWindowManifest['spec'];

const DAYS = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'] as const;
/** How far ahead a weekly period's openings are searched for "held until". */
const HORIZON_DAYS = 15;

const minutes = (hhmm: string) => {
  const [h = 0, m = 0] = hhmm.split(':').map(Number);
  return h * 60 + m;
};

function onDay(p: WindowPeriod, weekday: number): boolean {
  return !p.days || p.days.includes(DAYS[weekday] ?? 'Sun');
}

/** True when the window `spec` is open at `t` (epoch ms; pure). */
export function isOpen(spec: Spec, t: number): boolean {
  const tz = spec.timeZone;
  for (const d of spec.dates ?? []) {
    if (localInstant(d.from, tz, false) <= t && t < localInstant(d.to, tz, true)) return true;
  }
  if (!spec.periods) return false;
  const wall = wallTime(t, tz);
  const now = wall.hour * 60 + wall.minute;
  return spec.periods.some((p) => {
    const start = minutes(p.start);
    const stop = minutes(p.stop);
    if (start < stop) return onDay(p, wall.weekday) && now >= start && now < stop;
    // past midnight: the evening of a listed day, or the morning after one
    return (
      (onDay(p, wall.weekday) && now >= start) || (onDay(p, (wall.weekday + 6) % 7) && now < stop)
    );
  });
}

/**
 * Every instant after `now` at which the window opens or closes: its dates' ends, and its periods'
 * starts and stops over the next {@link HORIZON_DAYS} days (pure).
 */
export function boundaries(spec: Spec, now: number): number[] {
  const tz = spec.timeZone;
  const out: number[] = [];
  for (const d of spec.dates ?? []) {
    out.push(localInstant(d.from, tz, false), localInstant(d.to, tz, true));
  }
  const today = wallTime(now, tz);
  for (const p of spec.periods ?? []) {
    for (let i = -1; i <= HORIZON_DAYS; i++) {
      for (const hhmm of [p.start, p.stop]) {
        const m = minutes(hhmm);
        const day =
          today.day + i + (hhmm === p.stop && minutes(p.stop) <= minutes(p.start) ? 1 : 0);
        const at = {
          year: today.year,
          month: today.month,
          day,
          hour: Math.floor(m / 60),
          minute: m % 60,
        };
        out.push(wallInstant(at, tz));
      }
    }
  }
  return out.filter((t) => t > now);
}
