import { randomUUID } from 'node:crypto';
import { Slicer } from '../core/slices.js';
import type { Action } from '../model/action.js';
import { manifestKey } from '../model/manifest.js';
import { processHolder } from '../state/holder.js';
import { billedUsage } from './billed-usage.js';
import { applyWindows } from './change-windows.js';
import { dialectDiagnostics, profileDiagnostics } from './dialect-checks.js';
import { executePlan } from './executor.js';
import { gpuSummary } from './gpu.js';
import { locateFailure } from './locate.js';
import { observeAll } from './observe.js';
import { adoptPending, createError } from './ownership.js';
import { planSteps } from './planner.js';
import { evaluatePolicies, needsUsage } from './policies.js';
import { applyPowerRequests, namePowerRequests } from './power-requests.js';
import { applySchedules, nameSchedules } from './power-schedules.js';
import { preflight } from './preflight.js';
import { createRecorder } from './record.js';
import { checkReferences } from './references.js';
import {
  LoadedByKey,
  leftCosts,
  loadedKeys,
  pick,
  providerPortsOf,
  vpcProjects,
} from './run-parts.js';
import type { RunOptions, RunPorts, RunResult } from './run-types.js';
import { recordOutsideWindow } from './window-history.js';

/**
 * Runs whose action outcomes the state keeps for post-mortems; the oldest are pruned after each
 * run that changed something.
 */
const OUTCOME_RUNS_KEPT = 100;

export type * from './run-types.js';

/**
 * One reconcile run, the same for `plan`, `apply` and the controller (I/O through `ports`):
 * load → validate → references → lock → observe → adopt → plan → preflight → policies → approve →
 * execute →
 * report. Whole-run
 * problems (a held lock, an unreachable platform) throw classified errors; per-resource failures
 * are outcomes in the result.
 */
export async function reconcile(options: RunOptions, ports: RunPorts): Promise<RunResult> {
  const runId = options.runId ?? randomUUID();
  const startedAt = ports.clock.now();
  // the stages below are synchronous for seconds at 100,000 resources: between them, and inside
  // the plan, timers and I/O get the event loop (a controller's lease renewal is one)
  const slicer = ports.slicer ?? new Slicer({ now: () => ports.clock.now() });
  // load + validate: every diagnostic at once; an invalid set never reaches the platform
  const { manifests, diagnostics } = await ports.load({
    paths: [...options.paths],
    ...(options.stdin === undefined ? {} : { stdin: options.stdin }),
    ...(options.vars ? { vars: { ...options.vars } } : {}),
    ...(options.varFiles ? { varFiles: [...options.varFiles] } : {}),
  });
  if (diagnostics.some((d) => d.severity === 'error')) {
    return { runId, status: 'invalid', diagnostics, changes: false };
  }
  // references only the platform knows (a project): at the manifest's line, before any other read
  const unknown = await checkReferences(manifests, ports.projectId);
  if (unknown.length > 0) {
    return { runId, status: 'invalid', diagnostics: [...diagnostics, ...unknown], changes: false };
  }
  const applying = (options.mode ?? 'apply') === 'apply' && !options.dryRun;
  // lock: one writer per state store (the controller may already hold it)
  const lease =
    applying && !options.leaseHeld
      ? await ports.state.acquire({
          holder: ports.holder ?? processHolder(),
          runId,
          waitMs: options.lockTimeoutMs ?? 0,
          ...(options.lockWaitHint ? { waitHint: options.lockWaitHint } : {}),
        })
      : undefined;
  try {
    const providerPorts = providerPortsOf(ports);
    // observe: live state of what is declared, managed or left pending
    const observed = await ports.state.inventory();
    const { live, unreadable } = await observeAll(
      ports.providers,
      manifests,
      observed,
      await ports.state.pending(),
      providerPorts,
      ports.events,
    );
    // adopt: creates an interrupted run sent are recognised, never sent twice
    const adopted = applying && (await adoptPending(ports.state, live, ports.events, unreadable));
    await slicer.pause();
    // plan: pure
    // policies and change windows are platctl's own: checked below, never planned, recorded or
    // counted as resources
    const desired = manifests
      .map((m) => m.manifest)
      .filter((m) => m.kind !== 'Policy' && m.kind !== 'ChangeWindow');
    // power schedules: what each scheduled instance's period wants now is its declared power
    const schedules = applySchedules(desired, ports.clock.now(), options.prices);
    // power requests: what an operator asked where git pins no power state (the controller's)
    const scheduled = new Set(schedules.entries.map((e) => e.key));
    const requested = applyPowerRequests(schedules.desired, options.powerRequests, scheduled);
    const lastApplied = await ports.state.lastApplied();
    // the inventory observed, unless adopting wrote to it (100,000 rows parsed once, not twice)
    const inventory = adopted ? await ports.state.inventory() : observed;
    const unnamed = await slicer.run(
      planSteps(requested, live, lastApplied, {
        providers: ports.providers,
        inventory,
        keys: loadedKeys(manifests),
        unreadable: new Map([...unreadable].map(([key, why]) => [key, why.message])),
        ...pick(options, [
          'prune',
          'maxDeletes',
          'forceDeletes',
          'selfHeal',
          'exclude',
          'overLimit',
          'approvedDeletes',
        ]),
      }),
    );
    const planned = namePowerRequests(
      nameSchedules(unnamed, schedules.entries),
      options.powerRequests,
    );
    await slicer.pause();
    // preflight: what execution would find late (a secret not set, no VPC for compute) is a plan
    // error at its line
    const loaded = new LoadedByKey(manifests);
    const checks = await preflight(planned, loaded, {
      resolveSecret: ports.resolveSecret,
      vpcProjects: (projects) => vpcProjects(ports.providers, projects, providerPorts),
    });
    await slicer.pause();
    // the platform's dialect: values and fields it lacks, profiles it does not offer
    const dialect = [
      ...dialectDiagnostics(manifests, ports.api.dialect),
      ...(await profileDiagnostics(planned.actions, loaded, ports.profileNames)),
    ];
    await slicer.pause();
    const gpu = gpuSummary(planned, options.prices);
    const withGpu = { ...planned, ...(gpu ? { gpu } : {}) };
    // policies: each rule against the manifests it matches, with the whole plan in view (and
    // this month's billing, read only when a rule asks for plan.usage)
    const usage =
      ports.usage && needsUsage(manifests)
        ? await billedUsage(ports.usage, ports.clock.now())
        : undefined;
    const policies = evaluatePolicies(withGpu, {
      manifests,
      live,
      applying,
      ...(usage ? { usage } : {}),
      ...(options.approvedPolicies ? { approved: options.approvedPolicies } : {}),
    });
    await slicer.pause();
    // change windows: what may not run now is held (controller), refused (apply) or shown (plan)
    const windows = applyWindows(withGpu, {
      manifests,
      now: ports.clock.now(),
      mode: !applying ? 'show' : options.windows === 'hold' ? 'hold' : 'refuse',
      ...(options.outsideWindow ? { outsideWindow: options.outsideWindow } : {}),
    });
    const plan = {
      ...withGpu,
      actions: windows.actions,
      diagnostics: [
        ...planned.diagnostics,
        ...checks,
        ...dialect,
        ...policies.diagnostics,
        ...windows.diagnostics,
      ],
      ...(policies.results.length > 0 ? { policies: policies.results } : {}),
      ...(windows.holds.length > 0 ? { windows: windows.holds } : {}),
      ...leftCosts(planned, live, options.prices),
    };
    await slicer.pause();
    const changes = plan.actions.some((a) => a.type !== 'noop');
    const base = { runId, diagnostics, plan, changes };
    if (plan.diagnostics.some((d) => d.severity === 'error')) return { ...base, status: 'blocked' };
    if (!applying) return { ...base, status: 'planned' };
    // approve: the plan shown is the plan executed
    if (changes && options.approve && !(await options.approve(plan))) {
      return { ...base, status: 'declined' };
    }
    // execute: the graph decides what is ready, the queue how many; results recorded as they land
    const recorder = await createRecorder(
      ports.state,
      plan,
      new Map(schedules.desired.map((m) => [manifestKey(m), m])),
      runId,
      ports.clock.now,
      // as read for the plan: nothing is written between the two (a copy of each less per run)
      { inventory, lastApplied },
      ports.commitGapMs
        ? { gapMs: ports.commitGapMs, sleep: (ms) => ports.clock.sleep(ms) }
        : undefined,
    );
    await slicer.pause();
    const outcomes = await executePlan(
      plan,
      {
        perform: (a, progress) =>
          ports.providers[a.target.kind]
            .execute(a as Action, { ...providerPorts, progress })
            .catch((err: unknown) => {
              throw locateFailure(createError(a, err), loaded.get(a.key));
            }),
        beforeStart: recorder.beforeStart,
        settled: recorder.settled,
        clock: ports.clock,
        // the noops of a resync settle in one loop: at 100,000 it gives the event loop turns
        pause: () => slicer.pause(),
        ...(ports.canWrite ? { canWrite: ports.canWrite } : {}),
        ...(ports.events ? { events: ports.events } : {}),
      },
      { concurrency: options.concurrency ?? 4, ...(ports.signal ? { signal: ports.signal } : {}) },
    );
    await recorder.forgotten();
    if (changes) await ports.state.pruneOutcomes(OUTCOME_RUNS_KEPT);
    await slicer.pause();
    // report
    // a resource that could not be read failed alone, at its root, with the read's error
    for (const [key, why] of unreadable) {
      outcomes.set(`${key}#observe`, {
        status: 'failed',
        elapsedMs: 0,
        error: why.message,
        code: why.code,
      });
    }
    const list = [...outcomes.values()];
    const status = list.some((o) => o.status === 'failed')
      ? 'failed'
      : list.some((o) => o.status === 'not-started')
        ? 'aborted'
        : changes
          ? 'applied'
          : 'in-sync';
    // an apply outside a change window is in the run history with its reason
    await recordOutsideWindow(ports.state, {
      runId,
      startedAt,
      endedAt: ports.clock.now(),
      status,
      plan,
      outcomes,
    });
    return { ...base, status, outcomes: Object.fromEntries(outcomes) };
  } finally {
    await lease?.release();
  }
}
