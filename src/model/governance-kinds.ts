import type { Kind, Metadata, PLATCTL_API_VERSION } from './kinds.js';

// platctl's governance kinds (docs/governance.md): checked and acted on by platctl, never sent to
// the platform.

/** What a policy rule's effect is when its expression is false (docs/governance.md). */
export type PolicyEffect = 'deny' | 'warn' | 'require-approval';

/** One rule of a Policy: which manifests it looks at, the CEL that must hold, and what else. */
export interface PolicyRule {
  name: string;
  match?: { kinds?: Kind[]; projects?: string[]; files?: string[] };
  expression: string;
  effect: PolicyEffect;
  message?: string;
}

/** Rules checked at plan; platctl-only, never sent to the platform. */
export interface PolicyManifest {
  apiVersion: typeof PLATCTL_API_VERSION;
  kind: 'Policy';
  metadata: Metadata;
  spec: { rules: PolicyRule[] };
}

/** A day of the week as schedules write it. */
export type Weekday = 'Mon' | 'Tue' | 'Wed' | 'Thu' | 'Fri' | 'Sat' | 'Sun';

/**
 * A time the selected instances are on: from `start` to `stop` (`HH:MM`, the zone's wall clock;
 * `stop` may be `24:00`) on each of `days`; a `stop` not after `start` ends on the next day.
 */
export interface PowerPeriod {
  days: Weekday[];
  start: string;
  stop: string;
}

/** Which compute instances a schedule powers: every criterion given must hold (lists: any of). */
export interface PowerSelector {
  labels?: Record<string, string>;
  /** Names, or globs with `*`. */
  names?: string[];
  workspaces?: string[];
  projects?: string[];
}

/** Compute instances on during its periods and off outside them; platctl-only. */
export interface PowerScheduleManifest {
  apiVersion: typeof PLATCTL_API_VERSION;
  kind: 'PowerSchedule';
  metadata: Metadata;
  spec: { timeZone: string; periods: PowerPeriod[]; selector: PowerSelector };
}

/** The actions a change window governs (docs/governance.md). */
export type WindowActionClass = 'delete' | 'controller-update' | 'power' | 'create';

/** A weekly period: on `days` (every day when absent) from `start` to `stop` (`HH:MM`). */
export interface WindowPeriod {
  days?: Weekday[];
  start: string;
  /** At or before `start`: the period runs past midnight into the next day. */
  stop: string;
}

/**
 * When the governed actions of the selected projects may run (`allow`) or may not (`deny`), in
 * an IANA time zone; platctl-only, never sent to the platform.
 */
export interface ChangeWindowManifest {
  apiVersion: typeof PLATCTL_API_VERSION;
  kind: 'ChangeWindow';
  metadata: Metadata;
  spec: {
    window: 'allow' | 'deny';
    actions: WindowActionClass[];
    /** Absent: every project (and what has none, users). */
    projects?: string[];
    timeZone: string;
    periods?: WindowPeriod[];
    /** One-off ranges: `YYYY-MM-DD` or `YYYY-MM-DDTHH:MM`; a date-only `to` includes that day. */
    dates?: { from: string; to: string }[];
  };
}
