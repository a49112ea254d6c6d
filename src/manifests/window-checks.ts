import type { ChangeWindowManifest } from '../model/governance-kinds.js';
import type { LoadedManifest } from '../model/manifest.js';
import { isTimeZone, wallInstant } from '../model/zoned-time.js';
import type { Diagnostic } from './diagnostics.js';

/**
 * The checks of a ChangeWindow a schema cannot express (pure): it has periods or dates, its time
 * zone is one this runtime knows, and each one-off range ends after it starts. Each at its
 * field's line.
 */
export function windowChecks(manifests: readonly LoadedManifest[]): Diagnostic[] {
  const out: Diagnostic[] = [];
  for (const m of manifests) {
    if (m.manifest.kind !== 'ChangeWindow') continue;
    const { spec } = m.manifest as ChangeWindowManifest;
    const at = (path: (string | number)[], message: string) =>
      out.push({
        severity: 'error',
        code: 'invalid-window',
        message,
        key: m.key,
        path: path
          .map((p) => (typeof p === 'number' ? `[${p}]` : `.${p}`))
          .join('')
          .slice(1),
        ...m.positionOf(path),
      });
    if (!spec.periods && !spec.dates) at(['spec'], 'set periods, dates or both');
    if (!isTimeZone(spec.timeZone)) {
      at(
        ['spec', 'timeZone'],
        `unknown time zone ${spec.timeZone} (an IANA name: Europe/Berlin, UTC)`,
      );
      continue;
    }
    (spec.dates ?? []).forEach((d, i) => {
      const from = localInstant(d.from, spec.timeZone, false);
      const to = localInstant(d.to, spec.timeZone, true);
      if (!(to > from)) at(['spec', 'dates', i, 'to'], `${d.to} is not after ${d.from}`);
    });
  }
  return out;
}

/**
 * The instant of `YYYY-MM-DD` or `YYYY-MM-DDTHH:MM` on the wall clock of `timeZone` (pure). A
 * date alone is its midnight, or with `endOfDay` the next midnight (a `to` includes its day).
 */
export function localInstant(text: string, timeZone: string, endOfDay: boolean): number {
  const [date = '', time] = text.split('T');
  const [year = 0, month = 1, day = 1] = date.split('-').map(Number);
  const [hour = 0, minute = 0] = (time ?? '00:00').split(':').map(Number);
  const nextDay = endOfDay && time === undefined ? 1 : 0;
  return wallInstant({ year, month, day: day + nextDay, hour, minute }, timeZone);
}
