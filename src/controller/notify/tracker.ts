import {
  type Alert,
  rejectedHead,
  type StatusView,
  type StepView,
  short,
  uncorrected,
} from './alerts.js';
import { driftAlerts } from './drift-alerts.js';
import { Emitter, type Report, rev, sameKeys, sorted } from './emitter.js';
import { policyHoldAlert, policyMark } from './held-policy.js';
import { type AlertMemory, mergeMemory, parseMemory } from './memory.js';

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
    const m = parseMemory(doc);
    if (!m) return false;
    this.#failing = m.failing;
    this.#rejected = m.rejected;
    this.#applied = m.applied;
    this.#policy = m.policy;
    this.#failedKeys = new Set(m.keys.failed);
    this.#drifted = new Set(m.keys.drifted);
    this.#corrected = m.keys.corrected;
    this.#prune = m.keys.prune;
    return true;
  }

  /**
   * Adds what another replica remembered of keys now also this one's (a shard taken over): the
   * keys join its own, and a mark it has none of yet is taken. False for an unknown document.
   */
  merge(doc: unknown): boolean {
    const other = parseMemory(doc);
    if (!other) return false;
    this.restore(mergeMemory(this.memory(), other));
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
    const prev = { drifted: this.#drifted, corrected: this.#corrected };
    ({ drifted: this.#drifted, corrected: this.#corrected } = driftAlerts(
      prev,
      uncorrected(report.drift, status),
      report,
      step,
      emit,
    ));
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
