import { deepFreeze } from '../core/freeze.js';
import { runSteps, type Steps } from '../core/slices.js';
import type { ProposedAction } from '../model/action.js';
import type { Manifest } from '../model/manifest.js';
import type { Plan, PlanDiagnostic } from '../model/plan.js';
import type { LiveObject, Provider } from '../model/provider.js';
import type { InventoryEntry } from '../state/types.js';
import { markDrift } from './drift.js';
import { excludeKeys } from './exclude.js';
import { identify } from './ids.js';
import { KnownManifests } from './known-manifests.js';
import { orderSteps } from './order.js';
import { type Pairing, pairSteps } from './pair.js';
import {
  LEFT_HOW,
  leftHint,
  NOTHING_TO_UNDO,
  type PruneOptions,
  pruneGuard,
  pruneVerdict,
  unprunedMessage,
} from './prune-rules.js';
import { regrant } from './regrant.js';

/** The pure half of each provider: how its kind is compared. */
export type PlannerRegistry = {
  readonly [K in Manifest['kind']]: Pick<Provider<K>, 'plan'> &
    Partial<Pick<Provider<K>, 'diagnose' | 'inSync'>>;
};

/** How to plan; the prune rules' options are {@link PruneOptions}. */
export interface PlanOptions extends PruneOptions {
  readonly providers: PlannerRegistry;
  /** What platctl manages (from the state store); only these are prune candidates. */
  readonly inventory?: readonly InventoryEntry[];
  /** Correct drift; when false, drift is reported as a warning and not planned. @default true */
  readonly selfHeal?: boolean;
  /**
   * Identity keys left out of this plan (the controller's resources backing off after failures):
   * their actions, and every action waiting on one of their changes, are deferred with a warning.
   * @default []
   */
  readonly exclude?: readonly string[];
  /**
   * Keys whose live state could not be read, with why: nothing is planned for them (no create, no
   * prune, no forget), and what depends on them is deferred like {@link exclude}. @default none
   */
  readonly unreadable?: ReadonlyMap<string, string>;
  /** Each desired manifest's key as loaded (see {@link pairSteps}); a plan is the same without. */
  readonly keys?: ReadonlyMap<Manifest, string>;
}

/**
 * Plans the actions that take the platform from `live` to `desired` (pure: no I/O, no clock, no
 * environment; inputs are never written to — providers get them deep-frozen, so a provider that
 * writes to one throws, and the values are frozen in place for good). Per-kind comparison
 * is delegated to `provider.plan()`; this function pairs, adds noops, applies the prune rules,
 * assigns ids, orders the result and leaves out {@link PlanOptions.exclude}d keys. Problems that
 * are not actions go to `diagnostics`; a plan with an error diagnostic must not be applied.
 */
export function plan(
  desired: readonly Manifest[],
  live: readonly LiveObject[],
  lastApplied: ReadonlyMap<string, Manifest>,
  options: PlanOptions,
): Plan {
  return runSteps(planSteps(desired, live, lastApplied, options));
}

/**
 * {@link plan} as {@link Steps}: the same plan, computed with a pause after each pairing and
 * inside the ordering, where a caller may give the event loop a turn (a controller planning
 * 100,000 resources must still renew its lease). Pure like {@link plan}.
 */
export function* planSteps(
  desired: readonly Manifest[],
  live: readonly LiveObject[],
  lastApplied: ReadonlyMap<string, Manifest>,
  options: PlanOptions,
): Steps<Plan> {
  const diagnostics: PlanDiagnostic[] = [];
  const proposed: ProposedAction[] = [];
  const forget: string[] = [];
  const prunes: ProposedAction[] = [];
  const found: string[] = [];
  const left: string[] = [];
  const unreadable = options.unreadable ?? new Map<string, string>();
  const { inventory = [], keys } = options;
  const paired = yield* pairSteps(desired, live, lastApplied, inventory, keys);
  const { pairings } = paired;
  yield;
  for (const p of pairings) {
    yield;
    if (p.live && !p.inventory?.createdByPlatctl) found.push(p.key);
    // unread: what it would take is planned only so that its dependents are held back below
    if (unreadable.has(p.key) && !p.desired) continue;
    const provider = options.providers[p.kind] as PlannerRegistry[Manifest['kind']];
    if (p.desired) {
      proposed.push(...declared(p, p.desired, provider, lastApplied, options, diagnostics));
      continue;
    }
    // read-only, not copied: a provider that writes to its input throws (a copy of each
    // pairing's manifests was most of an idle plan's garbage at 100,000)
    const input = deepFreeze({
      key: p.key,
      desired: p.desired,
      live: p.live,
      lastApplied: p.lastApplied,
    });
    const verdict = pruneVerdict(p, options);
    if (verdict === 'untouched') continue;
    if (verdict === 'left') {
      left.push(p.key);
      diagnostics.push({ severity: 'warning', key: p.key, message: leftHint(p.key) });
      continue;
    }
    if (verdict !== 'prune' && verdict !== 'unpruned') {
      diagnostics.push({ severity: 'warning', key: p.key, message: verdict });
      continue;
    }
    // a kind whose removal sends nothing (a publish, controller versions) is only let go of
    const actions = provider.plan(input as never);
    if (verdict === 'unpruned') {
      diagnostics.push({ severity: 'warning', key: p.key, message: unprunedMessage(actions) });
    } else if (actions.length > 0) {
      prunes.push(...actions);
    } else {
      forget.push(p.key);
      diagnostics.push({ severity: 'warning', key: p.key, message: NOTHING_TO_UNDO });
    }
  }
  const guard = pruneGuard(prunes, options);
  proposed.push(...guard.kept);
  if (guard.diagnostic) diagnostics.push(guard.diagnostic);
  // what each key is known as, for the edges. Only the pairings' keys: every action is one's, and
  // the ordering ignores an edge whose end has no action (a map of every live object and
  // last-applied manifest cost 400,000 lookups at 100,000)
  const manifests = new KnownManifests(paired);
  yield;
  // one map of the keys' actions for their ids and their ordering
  const ids = identify(regrant(proposed, desired));
  yield;
  const ordered = yield* orderSteps(ids.actions, manifests, ids.byKey);
  yield;
  // after ordering: what waits on an excluded change is known only once the edges are
  const kept = excludeKeys(
    ordered.actions,
    new Set([...(options.exclude ?? []), ...unreadable.keys()]),
    unreadable,
  );
  return {
    formatVersion: 1,
    actions: kept.actions,
    diagnostics: [...diagnostics, ...ordered.diagnostics, ...kept.diagnostics],
    ...(forget.length > 0 ? { forget } : {}),
    ...(guard.held ? { pruneHeld: guard.held } : {}),
    ...(found.length > 0 ? { found } : {}),
    ...(left.length > 0 ? { leftOnPlatform: { keys: left, message: LEFT_HOW } } : {}),
    ...(unreadable.size > 0 ? { unreadable: [...unreadable.keys()].sort() } : {}),
  };
}

/**
 * The actions of a declared key: a noop when its provider finds desired and live in sync without
 * the last-applied manifest (which is then never looked up), else what the provider plans from all
 * three. Diagnoses either way. Inputs are deep-frozen, not copied: a provider that writes to one
 * throws (a copy of each pairing's manifests was most of an idle plan's garbage at 100,000).
 */
function declared(
  p: Pairing,
  desired: Manifest,
  provider: PlannerRegistry[Manifest['kind']],
  lastApplied: ReadonlyMap<string, Manifest>,
  options: PlanOptions,
  diagnostics: PlanDiagnostic[],
): ProposedAction[] {
  const { key, live } = p;
  if (live && provider.inSync?.(deepFreeze({ key, desired, live }) as never)) {
    if (provider.diagnose) {
      const input = deepFreeze({ key, desired, live, lastApplied: lastApplied.get(key) });
      diagnostics.push(...provider.diagnose(input as never));
    }
    return [noop(p)];
  }
  const input = deepFreeze({ key, desired, live, lastApplied: lastApplied.get(key) });
  diagnostics.push(...(provider.diagnose?.(input as never) ?? []));
  const actions = markDrift(provider.plan(input as never), desired, input.lastApplied);
  return actions.length > 0 ? healed(actions, p, options, diagnostics) : [noop(p)];
}

/** Drops drift corrections of every kind when self-heal is off, reporting them instead. */
function healed(
  actions: ProposedAction[],
  p: Pairing,
  options: PlanOptions,
  diagnostics: PlanDiagnostic[],
): ProposedAction[] {
  if (options.selfHeal !== false) return actions;
  const kept = actions.filter((a) => a.reason.code !== 'drift');
  for (const a of actions) {
    if (a.reason.code === 'drift') {
      diagnostics.push({
        severity: 'warning',
        key: p.key,
        message: `drift not corrected (self-heal is off): ${a.reason.message}`,
      });
    }
  }
  return kept.length > 0 ? kept : [noop(p)];
}

/**
 * One reason and one empty change list for every noop, frozen: an idle run of 100,000 made one of
 * each per resource (≈ 10 MB held through its ordering and execution); as JSON they are the same.
 */
const IN_SYNC = Object.freeze({ code: 'in-sync', message: 'in sync' } as const);
const NO_CHANGES: readonly never[] = Object.freeze([]);

function noop(p: Pairing): ProposedAction {
  return {
    type: 'noop',
    key: p.key,
    target: p.live?.ref ?? refOf(p.desired!),
    reason: IN_SYNC,
    changes: NO_CHANGES,
  };
}

function refOf(m: Manifest): ProposedAction['target'] {
  const { name, project, workspace } = m.metadata;
  return {
    kind: m.kind,
    name,
    ...(project === undefined ? {} : { project }),
    ...(workspace === undefined ? {} : { workspace }),
  };
}
