import {
  type Alert,
  type AlertKind,
  bounded,
  type RecoverableKind,
  rejectedHead,
  type Severity,
  type StatusView,
  type StepView,
  short,
  uncorrected,
} from './alerts.js';

/** Results that end a run failure: the run completed without a failed or deferred change. */
const HEALTHY = new Set(['succeeded', 'planned', 'progressing', 'prune-blocked']);

/**
 * Turns each finished run into the alerts it calls for, level-based and deduplicated: an alert
 * is sent when its condition starts or changes (another revision, new keys), not again while it
 * persists, and one `recovered` when it ends. Holds only fingerprints (bounded by the keys of one
 * run). Pure apart from its own memory; no clock, no I/O.
 */
export class AlertTracker {
  /** `fetch` or `failed:<revision>` while runs fail. */
  #failing: string | undefined;
  /** The rejected HEAD revision while the source is not ready. */
  #rejected: string | undefined;
  /** Drifted keys left uncorrected, as last reported. */
  #drifted = new Set<string>();
  /** The keys of the last run's corrected drift (a fight with something reverting it). */
  #corrected = '';
  /** The keys of the held prune. */
  #prune: string | undefined;
  #applied: string | undefined;

  /** Takes the conditions a restored status already shows as known, so a restart re-sends none. */
  seed(status: StatusView): void {
    if (status.lastResult === 'fetch-failed') this.#failing = 'fetch';
    if (status.lastResult === 'failed') this.#failing = `failed:${status.lastAttemptedRevision}`;
    this.#rejected = rejectedHead(status)?.revision;
    this.#drifted = new Set(uncorrected(status.drift, status));
    this.#prune = status.blockedPrune ? [...status.blockedPrune.keys].sort().join('\n') : undefined;
    this.#applied = status.lastAppliedRevision;
  }

  /** The alerts for the run `step` that left the controller in `status`; `at` is an ISO time. */
  next(status: StatusView, step: StepView, at: string): Alert[] {
    const out: Alert[] = [];
    const alert = (
      kind: AlertKind,
      severity: Severity,
      summary: string,
      more: Partial<Pick<Alert, 'details' | 'resources' | 'revision' | 'recovered'>> = {},
    ) =>
      out.push({
        kind,
        severity,
        summary,
        details: bounded(more.details ?? []),
        resources: bounded(more.resources ?? []),
        ...(more.revision !== undefined ? { revision: more.revision } : {}),
        ...(step.runId !== undefined ? { runId: step.runId } : {}),
        ...(more.recovered !== undefined ? { recovered: more.recovered } : {}),
        source: status.source,
        at,
      });
    const recovered = (kind: RecoverableKind, summary: string, revision?: string) =>
      alert('recovered', 'info', summary, {
        recovered: kind,
        ...(revision !== undefined ? { revision } : {}),
      });
    const report = step.report;

    // Run failures: once per revision (or once for the source), recovered by a healthy run.
    if (step.result === 'failed' || step.result === 'fetch-failed') {
      const print = step.result === 'fetch-failed' ? 'fetch' : `failed:${step.revision}`;
      if (print !== this.#failing) {
        const failed = (report?.resources ?? []).filter((r) => r.outcome === 'failed');
        const why = status.lastError ?? 'see platctl ctl status';
        const summary =
          step.result === 'fetch-failed'
            ? `fetching the source failed: ${why}`
            : failed.length > 0
              ? `run on revision ${short(step.revision)} failed: ${failed.length} resource(s) failed`
              : `run on revision ${short(step.revision)} failed: ${status.lastError ?? 'changes were left out while resources back off'}`;
        alert('run-failed', 'error', summary, {
          details: failed.map((r) => `${r.key}: ${r.error ?? 'failed'}`),
          resources: failed.map((r) => r.key),
          ...(step.revision !== undefined ? { revision: step.revision } : {}),
        });
      }
      this.#failing = print;
    } else if (
      this.#failing &&
      (HEALTHY.has(step.result) || (step.result === 'invalid' && report))
    ) {
      this.#failing = undefined;
      recovered(
        'run-failed',
        `runs succeed again on revision ${short(step.revision)}`,
        step.revision,
      );
    }

    // A rejected HEAD: once per revision, recovered when the newest revision validates.
    const head = rejectedHead(status);
    if (head && head.revision !== this.#rejected) {
      this.#rejected = head.revision;
      alert(
        'revision-rejected',
        'error',
        `revision ${short(head.revision)} rejected: its manifests do not validate; the last good revision stays applied`,
        {
          details: head.diagnostics.map((d) => (d.at ? `${d.at}: ${d.message}` : d.message)),
          revision: head.revision,
        },
      );
    } else if (!head && status.sourceReady && this.#rejected !== undefined) {
      this.#rejected = undefined;
      recovered(
        'revision-rejected',
        `source ready again: revision ${short(status.fetchedRevision)} validates`,
        status.fetchedRevision,
      );
    }

    // Drift and a held prune are known only from a run that observed the platform.
    if (report) {
      const left = uncorrected(report.drift, status);
      const fresh = left.filter((k) => !this.#drifted.has(k));
      if (fresh.length > 0) {
        alert(
          'drift-detected',
          'warning',
          `drift detected and not corrected on ${fresh.length} resource(s)`,
          {
            resources: fresh,
            details: fresh.map((k) => `${k}: changed on the platform outside git`),
            ...(step.revision !== undefined ? { revision: step.revision } : {}),
          },
        );
      }
      const had = this.#drifted.size > 0;
      this.#drifted = new Set(left);
      if (had && left.length === 0)
        recovered('drift-detected', 'drift gone: every resource matches git again');
      const fixed = report.drift.filter((k) => !left.includes(k));
      const print = [...fixed].sort().join('\n');
      if (fixed.length > 0 && print !== this.#corrected) {
        alert(
          'drift-detected',
          'info',
          `drift detected and corrected on ${fixed.length} resource(s)`,
          {
            resources: fixed,
            ...(step.revision !== undefined ? { revision: step.revision } : {}),
          },
        );
      }
      this.#corrected = print;

      const held = report.pruneHeld;
      const prune = held ? [...held.keys].sort().join('\n') : undefined;
      if (held && prune !== this.#prune) {
        alert('prune-blocked', 'warning', held.message, {
          resources: held.keys,
          details: [`approve with: platctl ctl approve-prune ${step.runId ?? '<run>'}`],
          ...(step.revision !== undefined ? { revision: step.revision } : {}),
        });
      } else if (!held && this.#prune !== undefined) {
        recovered(
          'prune-blocked',
          'prune no longer held (approved, or the manifests restored)',
          step.revision,
        );
      }
      this.#prune = prune;
    }

    // A newly applied revision: what commit statuses mark as success.
    const applied = status.lastAppliedRevision;
    if (applied !== undefined && applied !== this.#applied) {
      this.#applied = applied;
      alert('revision-applied', 'info', `revision ${short(applied)} applied`, {
        revision: applied,
      });
    }
    return out;
  }
}
