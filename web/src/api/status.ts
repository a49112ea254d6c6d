import type { Condition } from './resources.js';

/**
 * The controller's status as the page reads it (`GET /api/v1/status`, docs/control-api.md):
 * revisions, rejected ones, what is held (a prune, a policy, change windows) and what was left.
 */

export interface Revision {
  readonly revision: string;
  readonly message?: string;
  readonly author?: string;
  /** ISO 8601. */
  readonly time?: string;
}

export interface Diagnostic {
  readonly file: string;
  readonly line?: number;
  readonly column?: number;
  readonly message: string;
  readonly severity: 'error' | 'warning';
}

export interface RejectedRevision {
  readonly revision: string;
  readonly at: string;
  readonly diagnostics: readonly Diagnostic[];
}

/** What a plan's compute changes or keeps running on one profile. */
export interface GpuChange {
  readonly profile: string;
  readonly instances: number;
  readonly gpuHoursPerDay?: number;
  readonly gpuHoursPerMonth?: number;
  readonly costPerDay?: number;
  readonly costPerMonth?: number;
}

/** Found objects removed from git, left on the platform, and what their compute keeps costing. */
export interface LeftOnPlatform {
  readonly keys: readonly string[];
  readonly message: string;
  readonly gpu?: { readonly changes: readonly GpuChange[]; readonly currency?: string };
}

export interface BlockedPrune {
  readonly runId: string;
  readonly count: number;
  readonly limit: number;
  readonly keys: readonly string[];
}

/** `GET /api/v1/status`. */
export interface Status {
  readonly source: {
    readonly repo?: string;
    readonly branch?: string;
    readonly path?: string;
    readonly dir?: string;
  };
  readonly role: 'starting' | 'standby' | 'leader' | 'stopping';
  readonly suspended: boolean;
  readonly dryRun: boolean;
  readonly selfHeal: boolean;
  readonly revisions: {
    readonly fetched?: Revision;
    readonly lastAttempted?: Revision;
    readonly lastApplied?: Revision;
    readonly lastGood?: Revision;
  };
  readonly sourceReady: boolean;
  readonly rejected: readonly RejectedRevision[];
  readonly counts: Readonly<Record<Condition, number>> & { readonly total: number };
  readonly lastResult?: string;
  readonly lastError?: string;
  readonly lastRunAt?: string;
  readonly nextRunInMs?: number;
  readonly blockedPrune?: BlockedPrune;
  readonly heldPolicy?: HeldPolicy;
  /** Actions held by change windows; `heldUntil` is when the first may run. */
  readonly windowHolds?: readonly {
    readonly action: string;
    readonly key: string;
    readonly window: string;
    readonly until?: string;
  }[];
  readonly heldUntil?: string;
  readonly leftOnPlatform?: LeftOnPlatform;
}

/** A run held by `require-approval` policy rules (docs/governance.md). */
export interface HeldPolicy {
  readonly runId: string;
  readonly revision: string;
  readonly rules: readonly string[];
  readonly findings: readonly {
    readonly rule: string;
    readonly policy: string;
    readonly key: string;
    readonly message: string;
    readonly at?: string;
  }[];
}
