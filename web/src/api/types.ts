/**
 * The controller's control API as the page reads it: the shapes of docs/control-api.md
 * (docs/dashboard.md lists the routes). Fields the contract marks optional stay optional here.
 */

/** One condition per resource; `Orphaned`: removed from git, not created by this state, left. */
export type Condition = 'Ready' | 'Progressing' | 'Degraded' | 'Drifted' | 'Suspended' | 'Orphaned';

/** The conditions in the order the summary bar shows them. */
export const CONDITIONS: readonly Condition[] = [
  'Ready',
  'Progressing',
  'Degraded',
  'Drifted',
  'Suspended',
  'Orphaned',
];

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

/** One item of `GET /api/v1/resources`. */
export interface ResourceItem {
  readonly key: string;
  readonly kind: string;
  readonly project?: string;
  readonly workspace?: string;
  readonly name: string;
  readonly condition: Condition;
  readonly reason: string;
  readonly message?: string;
  readonly lastTransitionTime: string;
  /** The engine's order index. */
  readonly order: number;
  readonly dependsOn: readonly string[];
  /** With `view=tree`: its depth in the list (1: a root of its project). */
  readonly depth?: number;
}

/** One project of a filtered list (`groups=1`): how many matched, by condition. */
export interface ProjectGroup {
  /** Undefined: the resources of no project (users). */
  readonly project?: string;
  readonly total: number;
  /** Only the conditions with a resource. */
  readonly counts: Partial<Record<Condition, number>>;
}

export interface ResourcePage {
  readonly total: number;
  readonly items: readonly ResourceItem[];
  /** With `view=tree&groups=1`: the projects that matched, in the list's order. */
  readonly groups?: readonly ProjectGroup[];
}

export interface DiffEntry {
  readonly path: string;
  readonly op: 'add' | 'remove' | 'replace';
  readonly desired?: unknown;
  readonly live?: unknown;
}

/** One action of a run (`GET /api/v1/runs/{runId}`). */
export interface RunAction {
  readonly key: string;
  readonly type: string;
  readonly reason: string;
  readonly message?: string;
  readonly outcome: string;
  readonly error?: string;
  /** ISO; absent for an action that did not start (planned, skipped). */
  readonly startedAt?: string;
  readonly durationMs?: number;
}

/** One entry of a resource's history: `count` consecutive runs did the same. */
export interface HistoryEntry extends Omit<RunAction, 'key'> {
  readonly runId: string;
  readonly at: string;
  readonly count: number;
  readonly since?: string;
}

/** The document of a resource as written in git. */
interface DesiredSource {
  readonly file: string;
  readonly line: number;
  readonly yaml: string;
}

/** A compute instance's size and power. */
export interface ComputeView {
  readonly profile: string;
  readonly units: number;
  readonly gpus?: number;
  readonly powerState?: 'on' | 'off';
}

/** `GET /api/v1/resources/{key}`; every document has its secrets masked by the controller. */
/** A power action asked of an instance through the control API. */
export type PowerVerb = 'on' | 'off' | 'reboot';

/** What a compute instance's page may offer (docs/dashboard.md, "power actions"). */
export interface PowerOffer {
  readonly actions: readonly PowerVerb[];
  readonly reasons: readonly string[];
}

export interface ResourceDetail {
  readonly resource: ResourceItem;
  readonly desired?: unknown;
  readonly source?: DesiredSource;
  readonly live?: {
    readonly body: unknown;
    readonly status?: string;
    readonly powerState?: 'on' | 'off';
  };
  readonly liveError?: string;
  readonly compute?: ComputeView;
  readonly schedule?: InstanceSchedule;
  /** A compute instance's power actions git allows now, and why not the others. */
  readonly power?: PowerOffer;
  readonly diff: readonly DiffEntry[];
  readonly actions: readonly HistoryEntry[];
}

export interface RunItem {
  readonly runId: string;
  readonly revision?: string;
  readonly trigger: 'interval' | 'webhook' | 'manual' | 'watch' | 'startup' | 'cli';
  readonly startedAt: string;
  readonly durationMs: number;
  readonly result: string;
  readonly counts: {
    readonly create: number;
    readonly update: number;
    readonly delete: number;
    readonly other: number;
    readonly failed: number;
    readonly skipped: number;
  };
  readonly failures: readonly { readonly key: string; readonly error: string }[];
}

/** `GET /api/v1/runs/{runId}`: a run with its actions. */
export interface RunDetail extends RunItem {
  readonly actions: readonly RunAction[];
}

/** One line of `GET /api/v1/usage`. */
export interface UsageItem {
  readonly project: string;
  readonly profile: string;
  readonly instance?: string;
  readonly hours: number;
  readonly gpuHours?: number;
  /** With the controller's `--prices`: hours × the profile's hourly price. */
  readonly cost?: number;
  readonly gpus?: number;
}

/** `GET /api/v1/usage/daily`: one day of the trend. */
export interface UsageDay {
  readonly day: string;
  readonly hours: number;
  readonly gpuHours: number;
  readonly cost?: number;
}

/** `GET /api/v1/fleet`. */
export interface Fleet {
  readonly total: number;
  readonly on: number;
  readonly off: number;
  readonly gpusOn: number;
  readonly items: readonly {
    readonly key: string;
    readonly project: string;
    readonly workspace: string;
    readonly name: string;
    readonly profile: string;
    readonly power: 'on' | 'off';
    readonly gpus?: number;
    readonly condition?: Condition;
    readonly reason?: string;
    readonly schedule?: InstanceSchedule;
  }[];
}

/** The PowerSchedule selecting a compute instance: what it wants now and next. */
export interface InstanceSchedule {
  /** `PowerSchedule/name`. */
  readonly schedule: string;
  readonly timeZone: string;
  readonly state: 'on' | 'off';
  readonly why: 'period' | 'outside' | 'keep-on';
  readonly keepOnUntil?: string;
  /** `at` in UTC, `local` on the schedule's wall clock. */
  readonly next: readonly {
    readonly at: string;
    readonly local: string;
    readonly state: 'on' | 'off';
  }[];
  readonly offHoursPerMonth: number;
  readonly gpuHoursSavedPerMonth?: number;
  readonly costSavedPerMonth?: number;
  readonly currency?: string;
}

/** A node of `GET /api/v1/graph`: a resource, or a collapsed project or workspace. */
export interface GraphNode {
  readonly id: string;
  readonly type: 'resource' | 'project' | 'workspace';
  readonly label: string;
  /** The project it is drawn in; `''` for resources of no project. */
  readonly group: string;
  readonly kind?: string;
  readonly condition?: Condition;
  readonly reason?: string;
  readonly counts?: Partial<Record<Condition, number>>;
  readonly size?: number;
}

/** `GET /api/v1/graph`: `target` waits for `source`. */
export interface GraphAnswer {
  readonly nodes: readonly GraphNode[];
  readonly edges: readonly {
    readonly source: string;
    readonly target: string;
    readonly count: number;
  }[];
  readonly matched: number;
  readonly truncated: boolean;
}
