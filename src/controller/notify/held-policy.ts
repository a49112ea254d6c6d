import type { Alert, StatusView } from './alerts.js';

type Held = NonNullable<StatusView['heldPolicy']>;

/**
 * What one policy hold is, for telling it from the next: its revision and its rules. Every run of
 * a held revision holds again under a new run id; that is the same hold, alerted once. Pure.
 */
export function policyMark(status: StatusView): string | undefined {
  const held = status.heldPolicy;
  return held ? `${held.revision} ${[...held.rules].sort().join(',')}` : undefined;
}

/** The alert for a hold (pure): who must approve what, and how. */
export function policyHoldAlert(held: Held): {
  readonly summary: string;
  readonly more: Pick<Alert, 'details' | 'resources' | 'revision'>;
} {
  return {
    summary: `run held for approval by policy rule(s) ${held.rules.join(', ')}: nothing was changed`,
    more: {
      details: [
        `approve with: platctl ctl approve ${held.runId} (or the dashboard)`,
        ...held.findings.map((f) => `${f.at ? `${f.at}: ` : ''}${f.key}: ${f.message}`),
      ],
      resources: [...new Set(held.findings.map((f) => f.key))],
      revision: held.revision,
    },
  };
}
