import {
  type Alert,
  type AlertKind,
  bounded,
  type RecoverableKind,
  type Severity,
  type StatusView,
  type StepView,
} from './alerts.js';

type More = Partial<Pick<Alert, 'details' | 'resources' | 'revision' | 'recovered'>>;
export type Report = NonNullable<StepView['report']>;

/** Collects one run's alerts, filling in what every alert of the run shares. */
export class Emitter {
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

export function rev(revision: string | undefined): { revision?: string } {
  return revision !== undefined ? { revision } : {};
}

/** A set of keys in one order, so that two sets compare as lists. */
export function sorted(keys: readonly string[]): readonly string[] {
  return [...keys].sort();
}

export function sameKeys(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((k, i) => k === b[i]);
}
