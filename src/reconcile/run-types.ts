import type { Clock } from '../core/clock.js';
import type { Logger } from '../core/logger.js';
import type { Slicer } from '../core/slices.js';
import type { ActionOutcome } from '../model/action.js';
import type { ApiClient } from '../model/api.js';
import type { LoadedManifest, SecretSource } from '../model/manifest.js';
import type { Plan } from '../model/plan.js';
import type { PriceFile } from '../model/prices.js';
import type { ProfileNames, ProviderRegistry } from '../model/provider.js';
import type { LeaseHolder, StateStore } from '../state/types.js';
import type { UsagePort } from './billed-usage.js';
import type { EventSink } from './events.js';
import type { PowerRequests } from './power-requests.js';

/** A loader diagnostic, as `loadAndValidate` returns it (structural, so the engine needs no loader). */
export interface ManifestDiagnostic {
  readonly severity: 'error' | 'warning';
  readonly code: string;
  readonly message: string;
  readonly file?: string;
  readonly line?: number;
  readonly col?: number;
  readonly key?: string;
}

/** The manifests stage: load and validate everything, never throwing for bad input. */
export type LoadPort = (input: {
  paths: string[];
  stdin?: string | Uint8Array;
  vars?: Record<string, string>;
  varFiles?: string[];
}) => Promise<{ manifests: LoadedManifest[]; diagnostics: ManifestDiagnostic[] }>;

/** What one run does. Everything but `paths` has a default. */
export interface RunOptions {
  /** Files or directories of manifests. */
  readonly paths: readonly string[];
  /** What a `-` path stands for: bytes as read (checked like a file's), or text. */
  readonly stdin?: string | Uint8Array;
  readonly vars?: Readonly<Record<string, string>>;
  readonly varFiles?: readonly string[];
  /** `plan` only reads the platform; `apply` executes the plan. @default 'apply' */
  readonly mode?: 'plan' | 'apply';
  /** Apply mode that plans and stops (the controller's `--dry-run`). @default false */
  readonly dryRun?: boolean;
  /** Delete managed resources no longer in git. @default false */
  readonly prune?: boolean;
  /** @default 5 */
  readonly maxDeletes?: number;
  readonly forceDeletes?: boolean;
  /** A prune over the limit: a plan error (`block`) or held back alone (`hold`). @default 'block' */
  readonly overLimit?: 'block' | 'hold';
  /** Keys whose prune deletion was approved past the limit. @default [] */
  readonly approvedDeletes?: readonly string[];
  /** Policy rules (`require-approval`) approved for this run by name. @default [] */
  readonly approvedPolicies?: readonly string[];
  /** What operators asked of instances' power (the controller's intent), where git pins none. */
  readonly powerRequests?: PowerRequests;
  /**
   * Actions outside their ChangeWindow: left out of the run (`hold`, the controller) or refused
   * as plan errors (`refuse`, `apply`) unless {@link outsideWindow} gives a reason. A plan shows
   * them either way. @default 'refuse'
   */
  readonly windows?: 'hold' | 'refuse';
  /** `apply --outside-window "<reason>"`: run them anyway; recorded in the run history. */
  readonly outsideWindow?: string;
  /** The run's id in outcomes and reports; the controller passes its own. @default a random UUID */
  readonly runId?: string;
  /** Correct drift (true) or only report it (false). @default true */
  readonly selfHeal?: boolean;
  /**
   * Identity keys left out of this run, with every action waiting on one of their changes (the
   * controller passes its resources in backoff); each is reported as a deferral warning. @default []
   */
  readonly exclude?: readonly string[];
  /** Actions at once. @default 4 */
  readonly concurrency?: number;
  /** How long to wait for another holder of the state lease. @default 0 */
  readonly lockTimeoutMs?: number;
  /** How the caller can wait longer for a held lease, for the `locked` message (a CLI flag). */
  readonly lockWaitHint?: string;
  /** True when the caller (the controller) already holds the lease. @default false */
  readonly leaseHeld?: boolean;
  /** Asked with the plan before anything changes; false declines. Undefined approves. */
  readonly approve?: (plan: Plan) => Promise<boolean>;
  /** Prices and GPUs per compute profile, for the plan's GPU-hours and cost (`Plan.gpu`). */
  readonly prices?: PriceFile;
}

/** The run's I/O, all injected. */
export interface RunPorts {
  readonly load: LoadPort;
  readonly api: ApiClient;
  readonly providers: ProviderRegistry;
  readonly state: StateStore;
  readonly clock: Clock;
  readonly resolveSecret: (source: SecretSource) => Promise<string>;
  readonly projectId: (projectName: string) => Promise<string>;
  /** Billed usage lines, for policies that read `plan.usage` (not read otherwise). */
  readonly usage?: UsagePort;
  /** Profile names per project, where the dialect can read them; plan checks against them. */
  readonly profileNames?: ProfileNames | undefined;
  readonly events?: EventSink;
  readonly logger?: Logger;
  /** Soft stop (Ctrl-C, SIGTERM): no new action starts; running ones finish and are recorded. */
  readonly signal?: AbortSignal;
  /** Hard stop handed to providers: interrupts waits in flight. */
  readonly hardSignal?: AbortSignal;
  /** Poll interval and timeout of asynchronous waits. @default {pollMs: 2000, timeoutMs: 1800000} */
  readonly wait?: { readonly pollMs: number; readonly timeoutMs: number };
  /** Lease holder of this process. @default processHolder() */
  readonly holder?: LeaseHolder;
  /**
   * Asked before each action that changes the platform (no I/O); false stops the run from
   * starting more, as a stop does (a controller that can no longer prove it leads). @default
   * always true
   */
  readonly canWrite?: () => boolean;
  /**
   * The least time between two of the state's commits while executing (ms): set for a paced run
   * (`createRunPorts` with `rps`), whose requests wait their turn at the rate limiter anyway, so
   * the records of the actions answered within it share a commit. @default 0 (every turn)
   */
  readonly commitGapMs?: number;
  /**
   * Gives the event loop turns between the run's stages and inside its plan, shared by them all.
   * @default a 20 ms slice on {@link clock}
   */
  readonly slicer?: Slicer;
}

type RunStatus =
  | 'invalid' // manifests did not validate; nothing was sent to the platform
  | 'blocked' // the plan has errors; nothing was changed
  | 'planned' // plan mode or dry run: nothing was changed
  | 'in-sync' // apply found nothing to do
  | 'declined' // the plan was not approved
  | 'applied' // every action succeeded
  | 'failed' // at least one action failed
  | 'aborted'; // stopped before every action ran

/** The structured result of a run (JSON-serializable). */
export interface RunResult {
  readonly runId: string;
  readonly status: RunStatus;
  readonly diagnostics: readonly ManifestDiagnostic[];
  readonly plan?: Plan;
  /** By action id, in plan order; present when the plan was executed. */
  readonly outcomes?: Readonly<Record<string, ActionOutcome>>;
  /** True when the plan has any action other than noop. */
  readonly changes: boolean;
}
