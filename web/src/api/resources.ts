import type { HistoryEntry } from './runs.js';

/**
 * The control API's resources as the page reads them (docs/control-api.md): conditions, the
 * paged list, one resource's detail with its compute, power and schedule. Fields the contract
 * marks optional stay optional here.
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

/** A power action asked of an instance through the control API. */
export type PowerVerb = 'on' | 'off' | 'reboot';

/** What a compute instance's page may offer (docs/dashboard.md, "power actions"). */
export interface PowerOffer {
  readonly actions: readonly PowerVerb[];
  readonly reasons: readonly string[];
}

/** `GET /api/v1/resources/{key}`; every document has its secrets masked by the controller. */
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
