import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from 'prom-client';
import { CONDITION_TYPES, type ResourceCondition } from './conditions.js';
import type { RunResult } from './status.js';

/** Shape of the API client's `onRequest`/`onRetry` events that metrics read. */
export interface ApiEvent {
  readonly method: string;
  /** The path template without ids (bounded cardinality). */
  readonly route: string;
  readonly status: number;
  readonly failure?: 'network' | 'timeout';
}

/**
 * The controller's Prometheus metrics, in a registry of its own (no global state, so several
 * controllers can live in one test process).
 */
export class ControllerMetrics {
  readonly registry = new Registry();
  readonly #runs = new Counter({
    name: 'platctl_reconcile_runs_total',
    help: 'Reconcile runs by result.',
    labelNames: ['result'],
    registers: [this.registry],
  });
  readonly #duration = new Histogram({
    name: 'platctl_reconcile_duration_seconds',
    help: 'Wall time of reconcile runs by result.',
    labelNames: ['result'],
    buckets: [0.1, 0.5, 1, 5, 15, 60, 300, 900],
    registers: [this.registry],
  });
  readonly #requests = new Counter({
    name: 'platctl_api_requests_total',
    help: 'Platform API requests by endpoint and status (0 when no answer came).',
    labelNames: ['method', 'endpoint', 'status'],
    registers: [this.registry],
  });
  readonly #retries = new Counter({
    name: 'platctl_api_retries_total',
    help: 'Platform API retries by endpoint.',
    labelNames: ['method', 'endpoint'],
    registers: [this.registry],
  });
  readonly #drift = new Counter({
    name: 'platctl_drift_detected_total',
    help: 'Resources found changed on the platform outside git, by kind.',
    labelNames: ['kind'],
    registers: [this.registry],
  });
  readonly #resources = new Gauge({
    name: 'platctl_resources',
    help: 'Resources platctl manages, by kind and condition after the last run.',
    labelNames: ['kind', 'condition'],
    registers: [this.registry],
  });
  readonly #driftNow = new Gauge({
    name: 'platctl_drift_resources',
    help: 'Resources found changed outside git by the last run (corrected or not).',
    registers: [this.registry],
  });
  readonly #suspended = new Gauge({
    name: 'platctl_controller_suspended',
    help: '1 while the controller makes no change (--suspend, the suspend file, or ctl suspend).',
    registers: [this.registry],
  });
  readonly #fetch = new Histogram({
    name: 'platctl_git_fetch_duration_seconds',
    help: 'Wall time of fetching the source, by outcome (ok, error).',
    labelNames: ['outcome'],
    buckets: [0.05, 0.1, 0.5, 1, 2, 5, 15, 60],
    registers: [this.registry],
  });
  readonly #fetchErrors = new Counter({
    name: 'platctl_git_fetch_errors_total',
    help: 'Failed fetches of the source.',
    registers: [this.registry],
  });
  readonly #sourceNotReady = new Gauge({
    name: 'platctl_source_not_ready',
    help: '1 while the newest revision is rejected or cannot be fetched, else 0.',
    registers: [this.registry],
  });
  readonly #revision = new Gauge({
    name: 'platctl_last_applied_revision_info',
    help: 'The revision last applied without failure (value 1).',
    labelNames: ['revision'],
    registers: [this.registry],
  });
  readonly #appliedAt = new Gauge({
    name: 'platctl_last_applied_timestamp_seconds',
    help: 'When the last applied revision was applied (Unix seconds).',
    registers: [this.registry],
  });
  readonly #heartbeat = new Gauge({
    name: 'platctl_loop_last_heartbeat_seconds',
    help: 'When the reconcile loop last made progress (Unix seconds); /healthz fails when it is older than --liveness-threshold.',
    registers: [this.registry],
  });
  readonly #notifications = new Counter({
    name: 'platctl_notifications_total',
    help: 'Alerts to notification providers by provider type and outcome (sent, failed, dropped).',
    labelNames: ['type', 'outcome'],
    registers: [this.registry],
  });
  readonly #leader = new Gauge({
    name: 'platctl_controller_leader',
    help: '1 while this replica holds the state lease and acts, 0 on standby.',
    registers: [this.registry],
  });

  constructor() {
    // process_* and nodejs_* (CPU, memory, event loop lag, handles), in this registry only
    collectDefaultMetrics({ register: this.registry });
  }

  /** Sets the suspended gauge. */
  suspended(isSuspended: boolean): void {
    this.#suspended.set(isSuspended ? 1 : 0);
  }

  /** Observes one fetch of the source. */
  fetched(seconds: number, ok: boolean): void {
    this.#fetch.observe({ outcome: ok ? 'ok' : 'error' }, seconds);
    if (!ok) this.#fetchErrors.inc();
  }

  /** Counts one finished run. */
  run(result: RunResult, seconds: number): void {
    this.#runs.inc({ result });
    this.#duration.observe({ result }, seconds);
  }

  /** Hook for the API client's `onRequest`. */
  readonly onRequest = (e: ApiEvent): void => {
    this.#requests.inc({ method: e.method, endpoint: e.route, status: String(e.status) });
  };

  /** Hook for the API client's `onRetry`. */
  readonly onRetry = (e: ApiEvent): void => {
    this.#retries.inc({ method: e.method, endpoint: e.route });
  };

  /** Replaces the resource gauge with one count per resource (not per action); counts drift. */
  resources(conditions: readonly ResourceCondition[], drift: readonly string[]): void {
    this.#resources.reset();
    const kinds = new Set(conditions.map((c) => c.kind));
    // every condition of every kind present, zeros included, so alerts see a 0 and not a gap
    for (const kind of kinds)
      for (const condition of CONDITION_TYPES) this.#resources.set({ kind, condition }, 0);
    for (const c of conditions) this.#resources.inc({ kind: c.kind, condition: c.condition });
    // Identity keys start with the kind (`Workspace/platform/dev`).
    for (const key of drift) this.#drift.inc({ kind: key.split('/')[0] ?? 'unknown' });
    this.#driftNow.set(drift.length);
  }

  /** Sets the source-not-ready gauge. */
  sourceReady(ready: boolean): void {
    this.#sourceNotReady.set(ready ? 0 : 1);
  }

  applied(revision: string, atMs: number): void {
    this.#revision.reset();
    this.#revision.set({ revision }, 1);
    this.#appliedAt.set(atMs / 1000);
  }

  /** The loop's last heartbeat (epoch ms). */
  heartbeat(atMs: number): void {
    this.#heartbeat.set(atMs / 1000);
  }

  /** Counts one alert's fate at one provider (`sent`, `failed` after retries, `dropped`). */
  readonly notification = (type: string, outcome: 'sent' | 'failed' | 'dropped'): void => {
    this.#notifications.inc({ type, outcome });
  };

  leader(isLeader: boolean): void {
    this.#leader.set(isLeader ? 1 : 0);
  }
}
