import type { Action } from './action.js';
import type { PolicyEffect, WindowActionClass } from './governance-kinds.js';

/**
 * The plan is data: a list of actions, each with a reason, ordered by explicit dependencies.
 * It is JSON-serializable (it can be saved, posted on a pull request and applied later) and holds
 * no secret: passwords stay `passwordFrom` references until the moment of execution.
 */
export interface Plan {
  /** Format version of the JSON form (`platctl plan --output json`). */
  readonly formatVersion: 1;
  readonly actions: readonly Action[];
  /** Problems found while planning that are not actions (e.g. an immutable field changed). */
  readonly diagnostics: readonly PlanDiagnostic[];
  /**
   * Identity keys pruned with nothing to send (kinds the API cannot undo: a blueprint publish,
   * controller versions, a version's enablement; or a managed object already gone): applying the
   * plan drops them from the state store's inventory. Absent when empty.
   */
  readonly forget?: readonly string[];
  /** Prune deletions over the limit left out of this plan (`overLimit: 'hold'`); absent when none. */
  readonly pruneHeld?: PruneHeld;
  /**
   * Identity keys of live objects in this plan that this state did not create (found, not
   * created: never pruned), sorted. Absent when there are none.
   */
  readonly found?: readonly string[];
  /**
   * Objects removed from git that this state did not create (found): never pruned, so left on the
   * platform, still running and billed. Absent when there are none.
   */
  readonly leftOnPlatform?: LeftOnPlatform;
  /**
   * Identity keys whose live state could not be read (the API kept failing after retries),
   * sorted: nothing is planned for them or for what depends on them. Absent when every read
   * succeeded. `platctl plan` exits 1 when present: this plan does not show the whole platform.
   */
  readonly unreadable?: readonly string[];
  /**
   * GPU-hours (and cost, with a price file) per day and month that the compute this plan creates,
   * deletes or resizes adds or removes, per profile. Absent when it touches no compute's size.
   */
  readonly gpu?: GpuSummary;
  /** Policy rules that did not pass, in manifest then rule order; absent when every rule passed. */
  readonly policies?: readonly PolicyResult[];
  /** Each compute instance a PowerSchedule powers, by key; absent when none is scheduled. */
  readonly schedules?: readonly ScheduledPower[];
  /**
   * Actions a ChangeWindow keeps out of this moment, with the window and when it opens; absent
   * when every action may run now (docs/governance.md).
   */
  readonly windows?: readonly WindowHold[];
}

/** What a PowerSchedule wants of one compute instance now and next (docs/governance.md). */
export interface ScheduledPower {
  /** The instance's identity key. */
  readonly key: string;
  /** The schedule's identity key (`PowerSchedule/name`). */
  readonly schedule: string;
  readonly timeZone: string;
  /** The power state the schedule wants at the plan's time, hence the instance's declared one. */
  readonly state: 'on' | 'off';
  /** `period`: inside one; `outside`: in none; `keep-on`: kept on by its exception. */
  readonly why: 'period' | 'outside' | 'keep-on';
  /** The exception `platctl.io/keep-on-until`, when it is still ahead. */
  readonly keepOnUntil?: string;
  /** The next changes: `at` in UTC (RFC 3339), `local` on the schedule's wall clock. */
  readonly next: readonly {
    readonly at: string;
    readonly local: string;
    readonly state: 'on' | 'off';
  }[];
  /** Hours a month the schedule keeps it off (its off share of the coming week × 730). */
  readonly offHoursPerMonth: number;
  /** GPU-hours a month saved against always on; absent when the profile's GPUs are unknown. */
  readonly gpuHoursSavedPerMonth?: number;
  /** Cost a month saved against always on, in `currency`; absent without an hourly price. */
  readonly costSavedPerMonth?: number;
  readonly currency?: string;
}

/** An action outside its change window (`Plan.windows`). */
export interface WindowHold {
  /** The action's id and the resource's identity key. */
  readonly action: string;
  readonly key: string;
  readonly class: WindowActionClass;
  /** The ChangeWindow that keeps it: the open `deny` one, else the `allow` one(s) it is outside. */
  readonly window: string;
  /** ISO time it may run from; absent when no window opens within the horizon searched. */
  readonly until?: string;
  /**
   * `held`: left out of the run (the controller); `refused`: an apply without `--outside-window`
   * stops; `shown`: a plan only shows it; `overridden`: applied anyway with this reason.
   */
  readonly outcome: 'held' | 'refused' | 'shown' | 'overridden';
  readonly reason?: string;
}

/** A Policy rule that did not pass for one manifest (docs/governance.md). */
export interface PolicyResult {
  /** The Policy's identity key (`Policy/name`). */
  readonly policy: string;
  readonly rule: string;
  readonly effect: PolicyEffect;
  /**
   * `failed`: the expression was false (or could not be evaluated: a missing field, not a bool);
   * `approved`: a `require-approval` rule that failed and was approved for this run.
   */
  readonly outcome: 'failed' | 'approved';
  /** The manifest the rule failed for. */
  readonly key: string;
  readonly message: string;
  readonly file?: string;
  readonly line?: number;
  readonly col?: number;
}

/** Found objects no longer in git, left on the platform (`Plan.leftOnPlatform`). */
export interface LeftOnPlatform {
  /** Identity keys, sorted. */
  readonly keys: readonly string[];
  /** For people: what happened, and how to adopt, delete or forget them. */
  readonly message: string;
  /**
   * What the compute among them keeps running, per profile (`instances` and GPU-hours counted as
   * kept, not added); absent when none of them is compute. Filled by the run (prices, live specs).
   */
  readonly gpu?: GpuSummary;
}

/** Prune deletions the guard held back: more than the limit, not yet approved. */
export interface PruneHeld {
  readonly count: number;
  readonly limit: number;
  /** Identity keys whose deletion was held back, sorted. */
  readonly keys: readonly string[];
  /** One sentence for people saying why and how to go on. */
  readonly message: string;
}

export interface PlanDiagnostic {
  readonly severity: 'error' | 'warning';
  readonly key: string;
  readonly message: string;
  /** Where in the manifests the problem is, when it is at one place (preflight checks). */
  readonly file?: string;
  readonly line?: number;
  readonly col?: number;
  /**
   * A stable code for programs, where one is given: `postponed` is work that waits on what this
   * run creates, to be run again soon (a cluster's controller versions).
   */
  readonly code?: 'postponed';
}

/** Counts for the summary line `Plan: 3 to create, 1 to update, 0 to delete, 12 unchanged`. */
export interface PlanSummary {
  readonly create: number;
  /** Every change to an existing resource that is not a delete (update, publish, power, ...). */
  readonly update: number;
  readonly delete: number;
  readonly unchanged: number;
}

/** What a plan adds (positive) or removes (negative) on one compute profile, per day and month. */
export interface GpuChange {
  readonly profile: string;
  /** Instances created minus instances deleted. */
  readonly instances: number;
  /** Instances created; absent when none. */
  readonly created?: number;
  /** Instances deleted; absent when none (a rename deletes one and creates another). */
  readonly deleted?: number;
  /** Instances updated to another size (a Kubernetes instance's worker nodes); absent when none. */
  readonly resized?: number;
  /**
   * GPU-hours (net: what is created or grows, less what is deleted or shrinks); absent when the
   * profile's GPUs are unknown (not in the price file or defaults).
   */
  readonly gpuHoursPerDay?: number;
  readonly gpuHoursPerMonth?: number;
  /** In the price file's currency; absent without an hourly price for the profile. */
  readonly costPerDay?: number;
  readonly costPerMonth?: number;
}

/** The compute a plan creates or deletes, per profile (`Plan.gpu`). */
export interface GpuSummary {
  readonly changes: readonly GpuChange[];
  readonly currency?: string;
}
