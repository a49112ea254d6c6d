import type { Clock } from '../../core/clock.js';
import { credentialFilesIn } from '../../core/credentials.js';
import { PlatctlError } from '../../core/errors.js';
import type { Logger } from '../../core/logger.js';
import { Slicer } from '../../core/slices.js';
import type { Action, ActionOutcome } from '../../model/action.js';
import type { ApiClient } from '../../model/api.js';
import type { SecretSource } from '../../model/manifest.js';
import type { ProviderRegistry } from '../../model/provider.js';
import {
  createProfileDirectory,
  createProjectDirectory,
  createProviderRegistry,
  manifestSecrets,
} from '../../providers/index.js';
import { createUsageReader } from '../../providers/usage-reader.js';
import { type LoadPort, reconcile } from '../../reconcile/run.js';
import type { LeaseHolder, StateStore } from '../../state/index.js';
import { beatingApi } from './beating-api.js';
import { fencedApi } from './fenced-api.js';
import { controllerLoad, secretEnv } from './manifest-loading.js';
import { policyFindings } from './policy-findings.js';
import type { ReconcileRun, ResourceReport } from './ports.js';

/** What the engine needs that lives as long as the controller. */
export interface EngineDeps {
  readonly api: ApiClient;
  readonly providers: ProviderRegistry;
  readonly state: StateStore;
  readonly clock: Clock;
  /** This replica's lease holder; the loop holds the lease before each run. */
  readonly holder: LeaseHolder;
  readonly logger: Logger;
  readonly resolveSecret: (source: SecretSource) => Promise<string>;
  readonly maxDeletes?: number;
  readonly concurrency?: number;
  readonly wait?: { readonly pollMs: number; readonly timeoutMs: number };
  /** The manifests stage (the controller's loads each revision once). @default controllerLoad */
  readonly load?: LoadPort;
}

/** The controller's own credentials, which no manifest's `passwordFrom` may read. */
export interface OwnCredentials {
  /** Files holding them (`--api-key-file`, `--webhook-secret-file`, ...). */
  readonly files?: readonly string[];
  /** Every value they have had (grows when a file is rotated). */
  readonly values?: readonly string[];
}

/**
 * A controller's {@link EngineDeps} (pure): every kind's provider, and secrets resolved from the
 * environment without the controller's own ({@link manifestEnv}), never from one of `own`'s files
 * (nor the files the environment names) and never holding one of its values.
 */
export function controllerEngine(
  parts: Pick<EngineDeps, 'api' | 'state' | 'clock' | 'holder' | 'logger' | 'load'>,
  limits: Pick<EngineDeps, 'maxDeletes' | 'concurrency' | 'wait'>,
  own: OwnCredentials = {},
): EngineDeps {
  return {
    ...parts,
    providers: createProviderRegistry(),
    resolveSecret: (s) =>
      manifestSecrets({
        env: secretEnv,
        refusedFiles: [...(own.files ?? []), ...credentialFilesIn(process.env)],
        refusedValues: () => own.values ?? [],
      })(s),
    ...(limits.maxDeletes !== undefined ? { maxDeletes: limits.maxDeletes } : {}),
    ...(limits.concurrency !== undefined ? { concurrency: limits.concurrency } : {}),
    ...(limits.wait ? { wait: limits.wait } : {}),
  };
}

/**
 * The loop's {@link ReconcileRun} on top of the engine's `reconcile()`: the very run `apply`
 * performs, with the lease already held by the controller. A shutdown is a soft stop (running
 * actions finish); the run timeout also interrupts waits in flight. Resources in backoff
 * (`RunRequest.skipKeys`), and what waits on their changes, are left out of the plan.
 */
export function engineRun(deps: EngineDeps): ReconcileRun {
  return async (req, signal, hardStop) => {
    const hard = new AbortController();
    const onHardStop = () => hard.abort(hardStop?.reason);
    if (hardStop?.aborted) onHardStop();
    hardStop?.addEventListener('abort', onHardStop, { once: true });
    const beat = req.heartbeat;
    // Each attempt, retry wait and answer is progress for the watchdog; a hung attempt is not.
    const beating: ApiClient = beat ? beatingApi(deps.api, beat) : deps.api;
    // Every write is fenced: not sent once this replica can no longer prove it leads.
    const api = req.canWrite ? fencedApi(beating, req.canWrite) : beating;
    const onAbort = () => {
      if (signal.reason instanceof PlatctlError && signal.reason.code === 'timeout') {
        hard.abort(signal.reason);
      }
    };
    signal.addEventListener('abort', onAbort, { once: true });
    // kept for the run's page: when each action started
    const startedAt = new Map<string, number>();
    // the lease is renewed on this event loop: the run's long stages give it turns (monotonic)
    const slicer = new Slicer({ now: () => performance.now() });
    try {
      const result = await reconcile(
        {
          runId: req.runId,
          paths: [req.dir],
          mode: req.mode,
          prune: req.prune,
          selfHeal: req.selfHeal,
          exclude: req.skipKeys,
          leaseHeld: true,
          // a prune over the limit waits for approval; drift healing and the rest still run
          overLimit: 'hold',
          // an action outside its change window waits for the window; the rest runs
          windows: 'hold',
          approvedDeletes: req.approvedDeletes ?? [],
          approvedPolicies: req.approvedPolicies ?? [],
          ...(req.powerRequests ? { powerRequests: req.powerRequests } : {}),
          ...(deps.maxDeletes !== undefined ? { maxDeletes: deps.maxDeletes } : {}),
          ...(deps.concurrency !== undefined ? { concurrency: deps.concurrency } : {}),
        },
        {
          load: deps.load ?? controllerLoad,
          api,
          providers: deps.providers,
          // fenced at the lease epoch held as this run starts, not whatever is held later
          state: deps.state.pinned?.() ?? deps.state,
          clock: deps.clock,
          resolveSecret: deps.resolveSecret,
          // A fresh directory per run: projects created since the last run are seen.
          projectId: createProjectDirectory(api),
          profileNames: createProfileDirectory(api),
          usage: createUsageReader(api),
          holder: deps.holder,
          logger: deps.logger,
          signal,
          hardSignal: hard.signal,
          slicer,
          ...(req.canWrite ? { canWrite: req.canWrite } : {}),
          ...(deps.wait ? { wait: deps.wait } : {}),
          events: (e) => {
            beat?.('action' in e ? `${e.type} ${e.action.key}` : e.type);
            if (e.type === 'start') {
              startedAt.set(e.action.id, deps.clock.now());
              deps.logger.info(
                {
                  event: 'action-start',
                  revision: req.revision,
                  resource: e.action.key,
                  action: e.action.type,
                },
                e.action.reason.message,
              );
            }
          },
        },
      );
      if (result.status === 'invalid') {
        throw new PlatctlError('invalid-manifests', 'the manifests do not validate');
      }
      if (req.canWrite && !req.canWrite() && result.status === 'aborted') {
        deps.logger.warn(
          { event: 'writes-stopped', runId: req.runId },
          'this replica no longer leads: the actions not started are left to the leader',
        );
      }
      await slicer.pause();
      const keyOf = new Map((result.plan?.actions ?? []).map((a) => [a.id, a.key]));
      const outcomes = result.outcomes ?? {};
      const resources: ResourceReport[] = (result.plan?.actions ?? []).map((a) => {
        const o = outcomes[a.id];
        // cut by the hard stop, or skipped because of one that was: not failed, to be resumed
        const cut = o !== undefined && wasCut(o, outcomes);
        const started = startedAt.get(a.id);
        return {
          key: a.key,
          kind: a.target.kind,
          ref: a.target,
          changes: a.changes,
          dependsOn: dependsOnKeys(a, keyOf),
          action: a.type,
          reason: a.reason.code,
          message: a.reason.message,
          outcome: cut ? 'not-started' : (o?.status ?? 'planned'),
          ...(o?.status === 'failed' && !cut ? { error: o.error } : {}),
          ...(started !== undefined ? { startedAt: started } : {}),
          ...(o && 'elapsedMs' in o && a.type !== 'noop' ? { elapsedMs: o.elapsedMs } : {}),
        };
      });
      await slicer.pause();
      const planDiags = result.plan?.diagnostics ?? [];
      const drift = new Set(resources.filter((r) => r.reason === 'drift').map((r) => r.key));
      const driftMessages: Record<string, string> = {};
      for (const d of planDiags) {
        if (!d.message.startsWith('drift')) continue;
        drift.add(d.key);
        driftMessages[d.key] ??= d.message.replace(/^drift not corrected \([^)]*\): /, '');
      }
      return {
        resources,
        inventory: (await deps.state.inventory()).map((e) => e.key),
        diagnostics: planDiags.map((d) => ({
          severity: d.severity,
          code: 'plan',
          message: `${d.key}: ${d.message}`,
        })),
        drift: [...drift],
        driftMessages,
        deferred: planDiags.filter((d) => d.message.startsWith('deferred:')).map((d) => d.key),
        postponed: [...new Set(planDiags.filter((d) => d.code === 'postponed').map((d) => d.key))],
        ...(result.plan?.pruneHeld ? { pruneHeld: result.plan.pruneHeld } : {}),
        ...(result.plan?.leftOnPlatform ? { leftOnPlatform: result.plan.leftOnPlatform } : {}),
        ...(result.plan ? { plan: result.plan } : {}),
        ...policyFindings(result.plan, req.mode, req.dir),
        ...(result.plan?.windows ? { windowHolds: result.plan.windows } : {}),
        blocked: result.status === 'blocked',
        interrupted:
          result.status === 'aborted' || resources.some((r) => r.outcome === 'not-started'),
      };
    } finally {
      signal.removeEventListener('abort', onAbort);
      hardStop?.removeEventListener('abort', onHardStop);
    }
  };
}

const NO_KEYS: readonly string[] = Object.freeze([]);

/**
 * The identity keys `a` waits for, each once, not its own (pure): most actions of a resync wait
 * for none, and share one empty list instead of a set and two arrays each.
 */
function dependsOnKeys(a: Action, keyOf: ReadonlyMap<string, string>): readonly string[] {
  if (a.dependsOn.length === 0) return NO_KEYS;
  return [...new Set(a.dependsOn.map((d) => keyOf.get(d) ?? '').filter((k) => k && k !== a.key))];
}

/** An action ended by the hard stop (a wait or request cut), or skipped because one was. */
function wasCut(o: ActionOutcome, all: Readonly<Record<string, ActionOutcome>>): boolean {
  if (o.status === 'failed') return o.code === 'aborted';
  if (o.status !== 'skipped') return false;
  const root = all[o.because];
  return root?.status === 'failed' && root.code === 'aborted';
}
