import type { StepView } from './alerts.js';
import { type Emitter, type Report, rev, sameKeys, sorted } from './emitter.js';

/** What the tracker remembers of drift between runs. */
interface DriftMarks {
  /** Drifted keys left uncorrected, as last reported. */
  readonly drifted: ReadonlySet<string>;
  /** The keys of the last run's corrected drift (a fight with something reverting it). */
  readonly corrected: readonly string[];
}

/**
 * Uncorrected drift for newly drifted keys (`left`: this run's drift left uncorrected), recovered
 * when none is left; corrected drift as info, again only when its set of keys changes (not while
 * a fight with the same goes on). Returns the marks to remember.
 */
export function driftAlerts(
  prev: DriftMarks,
  left: readonly string[],
  report: Report,
  step: StepView,
  emit: Emitter,
): { drifted: Set<string>; corrected: readonly string[] } {
  const fresh = left.filter((k) => !prev.drifted.has(k));
  if (fresh.length > 0) {
    emit.alert(
      'drift-detected',
      'warning',
      `drift detected and not corrected on ${fresh.length} resource(s)`,
      {
        resources: fresh,
        details: fresh.map((k) => `${k}: changed on the platform outside git`),
        ...rev(step.revision),
      },
    );
  }
  if (prev.drifted.size > 0 && left.length === 0) {
    emit.recovered('drift-detected', 'drift gone: every resource matches git again', step.revision);
  }
  const fixed = report.drift.filter((k) => !left.includes(k));
  const print = sorted(fixed);
  if (fixed.length > 0 && !sameKeys(print, prev.corrected)) {
    emit.alert(
      'drift-detected',
      'info',
      `drift detected and corrected on ${fixed.length} resource(s)`,
      {
        resources: fixed,
        ...rev(step.revision),
      },
    );
  }
  return { drifted: new Set(left), corrected: print };
}
