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
import { policyHoldAlert, policyMark } from './held-policy.js';

/**
 * What the tracker remembers, as the state store keeps it (JSON): the run's own marks, and the
 * keys each condition was last alerted for — a shape a sharded controller splits by the shard of
 * each key and joins again, without knowing what the marks mean.
 */
export interface AlertMemory {
  readonly version: 1;
  /** `fetch` or `failed:<revision>` while runs fail. */
  readonly failing?: string;
  /** The rejected HEAD revision while the source is not ready. */
  readonly rejected?: string;
  /** The revision last alerted as applied. */
  readonly applied?: string;
  /** The policy hold alerted, while it lasts ({@link policyMark}). */
  readonly policy?: string;
  readonly keys: {
    readonly failed: readonly string[];
    readonly drifted: readonly string[];
    readonly corrected: readonly string[];
    /** Absent: no prune held. */
    readonly prune?: readonly string[];
  };
}

/** Condition reasons of a resource that failed and has not succeeded since (seeding on restart). */
const FAILING = new Set(['ActionFailed', 'BackingOff']);

/** Results that end a run failure: the run completed without a failed or deferred change. */
const HEALTHY = new Set([
  'succeeded',
  'planned',
  'progressing',
  'prune-blocked',
  'policy-held',
  'window-held',
]);

type More = Partial<Pick<Alert, 'details' | 'resources' | 'revision' | 'recovered'>>;
type Report = NonNullable<StepView['report']>;

/** Collects one run's alerts, filling in what every alert of the run shares. */
class Emitter {
  readonly alerts: Alert[] = [];
  readonly #status: StatusView;
  readonly #step: StepView;
  readonly #at: string;

  constructor(status: StatusView, step: StepView, at: string) {
    this.#status = status;
    this.#step = step;
    this.#at = at;
  }

  alert(kind: AlertKind, severity: Severity, summary: string, more: More = {}): void {
    const { details = [], resources = [], revision, recovered } = more;
    this.alerts.push({
      kind,
      severity,
      summary,
      details: bounded(details),
      resources: bounded(resources),
      ...(revision !== undefined ? { revision } : {}),
      ...(this.#step.runId !== undefined ? { runId: this.#step.runId } : {}),
      ...(recovered !== undefined ? { recovered } : {}),
      source: this.#status.source,
      at: this.#at,
    });
  }

  recovered(kind: RecoverableKind, summary: string, revision: string | undefined): void {
    this.alert('recovered', 'info', summary, { recovered: kind, ...rev(revision) });
  }
}

/**
 * Turns each finished run into the alerts it calls for, level-based and deduplicated: an alert
 * is sent when its condition starts or changes (another revision, new keys), not again while it
 * persists, and one `recovered` when it ends. Holds only fingerprints (bounded by the keys of one
 * run). Pure apart from its own memory; no clock, no I/O.
 */
export class AlertTracker {
  /** `fetch` or `failed:<revision>` while runs fail. */
  #failing: string | undefined;
  /** Every key that failed while {@link #failing} lasts (a key backing off is still failing). */
  #failedKeys = new Set<string>();
  /** The rejected HEAD revision while the source is not ready. */
  #rejected: string | undefined;
  /** Drifted keys left uncorrected, as last reported. */
  #drifted = new Set<string>();
  /** The keys of the last run's corrected drift (a fight with something reverting it). */
  #corrected: readonly string[] = [];
  /** The keys of the held prune. */
  #prune: readonly string[] | undefined;
  #applied: string | undefined;
  /** The policy hold alerted ({@link policyMark}). */
  #policy: string | undefined;

  /** What it remembers, for the state store (pure): a new leader restores it and re-sends nothing. */
  memory(): AlertMemory {
    return {
      version: 1,
      ...(this.#failing !== undefined ? { failing: this.#failing } : {}),
      ...(this.#rejected !== undefined ? { rejected: this.#rejected } : {}),
      ...(this.#applied !== undefined ? { applied: this.#applied } : {}),
      ...(this.#policy !== undefined ? { policy: this.#policy } : {}),
      keys: {
        failed: [...this.#failedKeys].sort(),
        drifted: [...this.#drifted].sort(),
        corrected: [...this.#corrected],
        ...(this.#prune ? { prune: [...this.#prune] } : {}),
      },
    };
  }

  /**
   * Takes what another process remembered (see {@link memory}) in place of its own; false,
   * changing nothing, for a document it does not know (it is seeded from the status instead).
   */
  restore(doc: unknown): boolean {
    const m = doc as Partial<AlertMemory> | undefined;
    if (m?.version !== 1 || typeof m.keys !== 'object' || m.keys === null) return false;
    const list = (v: unknown) =>
      Array.isArray(v) ? v.filter((k): k is string => typeof k === 'string') : [];
    const text = (v: unknown) => (typeof v === 'string' ? v : undefined);
    this.#failing = text(m.failing);
    this.#rejected = text(m.rejected);
    this.#applied = text(m.applied);
    this.#policy = text(m.policy);
    this.#failedKeys = new Set(list(m.keys.failed));
    this.#drifted = new Set(list(m.keys.drifted));
    this.#corrected = sorted(list(m.keys.corrected));
    this.#prune = m.keys.prune ? sorted(list(m.keys.prune)) : undefined;
    return true;
  }

  /**
   * Adds what another replica remembered of keys now also this one's (a shard taken over): the
   * keys join its own, and a mark it has none of yet is taken. False for an unknown document.
   */
  merge(doc: unknown): boolean {
    const own = this.memory();
    if (!this.restore(doc)) return false;
    const other = this.memory();
    const union = (a: readonly string[], b: readonly string[]) => [...new Set([...a, ...b])];
    const prune =
      own.keys.prune || other.keys.prune
        ? { prune: union(own.keys.prune ?? [], other.keys.prune ?? []) }
        : {};
    this.restore({
      version: 1,
      failing: own.failing ?? other.failing,
      rejected: own.rejected ?? other.rejected,
      applied: own.applied ?? other.applied,
      policy: own.policy ?? other.policy,
      keys: {
        failed: union(own.keys.failed, other.keys.failed),
        drifted: union(own.keys.drifted, other.keys.drifted),
        corrected: union(own.keys.corrected, other.keys.corrected),
        ...prune,
      },
    } satisfies AlertMemory);
    return true;
  }

  /** Takes the conditions a restored status already shows as known, so a restart re-sends none. */
  seed(status: StatusView): void {
    if (status.lastResult === 'fetch-failed') this.#failing = 'fetch';
    if (status.lastResult === 'failed') {
      this.#failing = `failed:${status.lastAttemptedRevision}`;
      this.#failedKeys = new Set(
        status.conditions.filter((c) => FAILING.has(c.reason)).map((c) => c.key),
      );
    }
    this.#rejected = rejectedHead(status)?.revision;
    this.#drifted = new Set(uncorrected(status.drift, status));
    this.#prune = status.blockedPrune ? sorted(status.blockedPrune.keys) : undefined;
    this.#applied = status.lastAppliedRevision;
    this.#policy = policyMark(status);
  }

  /** The alerts for the run `step` that left the controller in `status`; `at` is an ISO time. */
  next(status: StatusView, step: StepView, at: string): Alert[] {
    const emit = new Emitter(status, step, at);
    this.#runFailure(status, step, emit);
    this.#rejection(status, emit);
    // drift and a held prune are known only from a run that observed the platform
    if (step.report) {
      this.#drift(status, step, step.report, emit);
      this.#heldPrune(step, step.report, emit);
    }
    this.#heldPolicy(status, step, emit);
    this.#newlyApplied(status, emit);
    return emit.alerts;
  }

  /**
   * Once per revision (once for a failing fetch), and again on that revision when a resource
   * fails that had not failed since (the set grows; never when it shrinks or stays), naming only
   * the new ones. Recovered by the next healthy run.
   */
  #runFailure(status: StatusView, step: StepView, emit: Emitter): void {
    if (step.result === 'failed' || step.result === 'fetch-failed') {
      const print = step.result === 'fetch-failed' ? 'fetch' : `failed:${step.revision}`;
      const failed = (step.report?.resources ?? []).filter((r) => r.outcome === 'failed');
      const on = `run on revision ${short(step.revision)} failed`;
      if (print === this.#failing) {
        const fresh = failed.filter((r) => !this.#failedKeys.has(r.key));
        if (fresh.length === 0) return;
        for (const r of fresh) this.#failedKeys.add(r.key);
        emit.alert('run-failed', 'error', `${on}: ${fresh.length} more resource(s) failed`, {
          details: fresh.map((r) => `${r.key}: ${r.error ?? 'failed'}`),
          resources: fresh.map((r) => r.key),
          ...rev(step.revision),
        });
        return;
      }
      this.#failing = print;
      this.#failedKeys = new Set(failed.map((r) => r.key));
      const why = status.lastError;
      const summary =
        step.result === 'fetch-failed'
          ? `fetching the source failed: ${why ?? 'see platctl ctl status'}`
          : failed.length > 0
            ? `${on}: ${failed.length} resource(s) failed`
            : `${on}: ${why ?? 'changes were left out while resources back off'}`;
      emit.alert('run-failed', 'error', summary, {
        details: failed.map((r) => `${r.key}: ${r.error ?? 'failed'}`),
        resources: failed.map((r) => r.key),
        ...rev(step.revision),
      });
      return;
    }
    const healthy = HEALTHY.has(step.result) || (step.result === 'invalid' && step.report);
    if (this.#failing === undefined || !healthy) return;
    this.#failing = undefined;
    this.#failedKeys = new Set();
    const summary = `runs succeed again on revision ${short(step.revision)}`;
    emit.recovered('run-failed', summary, step.revision);
  }

  /** Once per rejected HEAD, recovered when the newest revision validates (source ready). */
  #rejection(status: StatusView, emit: Emitter): void {
    const head = rejectedHead(status);
    if (head && head.revision !== this.#rejected) {
      this.#rejected = head.revision;
      const why =
        head.reason === 'PolicyDenied' ? 'denied by policy' : 'its manifests do not validate';
      const summary = `revision ${short(head.revision)} rejected: ${why}; the last good revision stays applied`;
      emit.alert('revision-rejected', 'error', summary, {
        details: head.diagnostics.map((d) => (d.at ? `${d.at}: ${d.message}` : d.message)),
        revision: head.revision,
      });
    } else if (!head && status.sourceReady && this.#rejected !== undefined) {
      this.#rejected = undefined;
      const summary = `source ready again: revision ${short(status.fetchedRevision)} validates`;
      emit.recovered('revision-rejected', summary, status.fetchedRevision);
    }
  }

  /** Uncorrected drift for newly drifted keys, recovered when none is left; corrected drift as info. */
  #drift(status: StatusView, step: StepView, report: Report, emit: Emitter): void {
    const left = uncorrected(report.drift, status);
    const fresh = left.filter((k) => !this.#drifted.has(k));
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
    const had = this.#drifted.size > 0;
    this.#drifted = new Set(left);
    if (had && left.length === 0) {
      emit.recovered(
        'drift-detected',
        'drift gone: every resource matches git again',
        step.revision,
      );
    }
    // corrected drift: again only when the set changes (not while a fight with the same goes on)
    const fixed = report.drift.filter((k) => !left.includes(k));
    const print = sorted(fixed);
    if (fixed.length > 0 && !sameKeys(print, this.#corrected)) {
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
    this.#corrected = print;
  }

  /** Once per set of held keys, recovered when no prune is held. */
  #heldPrune(step: StepView, report: Report, emit: Emitter): void {
    const held = report.pruneHeld;
    const print = held ? sorted(held.keys) : undefined;
    if (held && print && !(this.#prune && sameKeys(print, this.#prune))) {
      emit.alert('prune-blocked', 'warning', held.message, {
        resources: held.keys,
        details: [`approve with: platctl ctl approve-prune ${step.runId ?? '<run>'}`],
        ...rev(step.revision),
      });
    } else if (!held && this.#prune !== undefined) {
      const summary = 'prune no longer held (approved, or the manifests restored)';
      emit.recovered('prune-blocked', summary, step.revision);
    }
    this.#prune = print;
  }

  /** Once per policy hold (revision and rules), recovered when no run is held. */
  #heldPolicy(status: StatusView, step: StepView, emit: Emitter): void {
    const mark = policyMark(status);
    if (status.heldPolicy && mark !== this.#policy) {
      const { summary, more } = policyHoldAlert(status.heldPolicy);
      emit.alert('approval-required', 'warning', summary, more);
    } else if (mark === undefined && this.#policy !== undefined) {
      const summary = 'policy hold released (approved, or the manifests changed)';
      emit.recovered('approval-required', summary, step.revision);
    }
    this.#policy = mark;
  }

  /** A newly applied revision: what commit statuses mark as success. */
  #newlyApplied(status: StatusView, emit: Emitter): void {
    const applied = status.lastAppliedRevision;
    if (applied === undefined || applied === this.#applied) return;
    this.#applied = applied;
    emit.alert('revision-applied', 'info', `revision ${short(applied)} applied`, {
      revision: applied,
    });
  }
}

function rev(revision: string | undefined): { revision?: string } {
  return revision !== undefined ? { revision } : {};
}

/** A set of keys in one order, so that two sets compare as lists. */
function sorted(keys: readonly string[]): readonly string[] {
  return [...keys].sort();
}

function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((k, i) => k === b[i]);
}
