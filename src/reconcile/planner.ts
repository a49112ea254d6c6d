import type { ProposedAction } from '../model/action.js';
import { type Manifest, manifestKey, PRUNE_ANNOTATION } from '../model/manifest.js';
import type { Plan, PlanDiagnostic } from '../model/plan.js';
import type { LiveObject, Provider } from '../model/provider.js';
import type { InventoryEntry } from '../state/types.js';
import { markDrift } from './drift.js';
import { excludeKeys } from './exclude.js';
import { assignIds } from './ids.js';
import { order } from './order.js';
import { type Pairing, pair } from './pair.js';
import { regrant } from './regrant.js';

/** The pure half of each provider: how its kind is compared. */
export type PlannerRegistry = {
  readonly [K in Manifest['kind']]: Pick<Provider<K>, 'plan'> &
    Partial<Pick<Provider<K>, 'diagnose'>>;
};

export interface PlanOptions {
  readonly providers: PlannerRegistry;
  /** What platctl manages (from the state store); only these are prune candidates. */
  readonly inventory?: readonly InventoryEntry[];
  /** Delete managed resources no longer in git. @default false */
  readonly prune?: boolean;
  /** More prune deletions than this is a plan error unless {@link forceDeletes}. @default 5 */
  readonly maxDeletes?: number;
  readonly forceDeletes?: boolean;
  /**
   * What a prune over {@link maxDeletes} does: `block` makes it a plan error (nothing runs, the
   * CLI's choice); `hold` leaves only those deletions out and says so in {@link Plan.pruneHeld}
   * (the controller's choice: everything else, drift healing included, still runs). @default 'block'
   */
  readonly overLimit?: 'block' | 'hold';
  /** Keys whose prune deletion a person approved: they do not count against the limit. @default [] */
  readonly approvedDeletes?: readonly string[];
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
}

const DEFAULT_MAX_DELETES = 5;

/**
 * Plans the actions that take the platform from `live` to `desired` (pure: no I/O, no clock, no
 * environment; inputs are never mutated — providers get structured clones). Per-kind comparison
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
  const diagnostics: PlanDiagnostic[] = [];
  const proposed: ProposedAction[] = [];
  const forget: string[] = [];
  const prunes: ProposedAction[] = [];
  const found: string[] = [];
  const left: string[] = [];
  const unreadable = options.unreadable ?? new Map<string, string>();
  for (const p of pair(desired, live, lastApplied, options.inventory ?? [])) {
    if (p.live && !p.inventory?.createdByPlatctl) found.push(p.key);
    // unread: what it would take is planned only so that its dependents are held back below
    if (unreadable.has(p.key) && !p.desired) continue;
    const input = structuredClone({
      key: p.key,
      desired: p.desired,
      live: p.live,
      lastApplied: p.lastApplied,
    });
    const provider = options.providers[p.kind] as PlannerRegistry[Manifest['kind']];
    if (p.desired) {
      diagnostics.push(...(provider.diagnose?.(input as never) ?? []));
      const actions = markDrift(provider.plan(input as never), p.desired, p.lastApplied);
      proposed.push(...(actions.length > 0 ? healed(actions, p, options, diagnostics) : [noop(p)]));
      continue;
    }
    const verdict = pruneVerdict(p, options);
    if (verdict === 'untouched') continue;
    if (verdict === 'left') {
      left.push(p.key);
      diagnostics.push({ severity: 'warning', key: p.key, message: LEFT });
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
  // what each key is known as, for the edges: git, else as last applied, else where it lives (a
  // resource pruned without a last-applied manifest still has its workspace and project)
  const manifests = new Map<string, Manifest>();
  for (const l of live) manifests.set(l.key, standIn(l));
  for (const [k, m] of lastApplied) manifests.set(k, m);
  for (const m of desired) manifests.set(manifestKey(m), m);
  const ordered = order(assignIds(regrant(proposed, desired)), manifests);
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
 * The limit on prune deletions: within it (or forced) every prune is kept; over it, `block` keeps
 * them with an error diagnostic and `hold` drops the unapproved ones with a warning.
 */
function pruneGuard(prunes: readonly ProposedAction[], options: PlanOptions) {
  const approved = new Set(options.approvedDeletes);
  // only deletions count (as the plan's "to delete" does): a pruned assignment's unassign does not
  const deleting = new Set(prunes.filter((a) => a.type === 'delete').map((a) => a.key));
  const keys = [...deleting].filter((k) => !approved.has(k)).sort();
  const limit = options.maxDeletes ?? DEFAULT_MAX_DELETES;
  if (keys.length <= limit || options.forceDeletes) return { kept: prunes };
  const count = keys.length;
  if (options.overLimit !== 'hold') {
    const message = `${count} resources would be pruned (deleted), more than the limit of ${limit}; raise --max-deletes or pass --force-deletes`;
    return { kept: prunes, diagnostic: { severity: 'error', key: '*', message } as const };
  }
  const message = `${count} resources would be pruned (deleted), more than the limit of ${limit}: their deletions are held back until approved (platctl ctl approve-prune) or the limit is raised; everything else runs`;
  return {
    kept: prunes.filter((a) => !deleting.has(a.key) || approved.has(a.key)),
    diagnostic: { severity: 'warning', key: '*', message } as const,
    held: { count, limit, keys, message },
  };
}

const LEFT = 'removed from git but not created by this state: left on the platform (never pruned)';
const LEFT_HOW =
  'removed from git but not created by this state: left on the platform, never pruned. ' +
  'To delete one, delete it on the platform, or adopt it (platctl import --adopt --project ' +
  '<project> --kind <kind> --out <dir>: every object of that kind and project becomes this ' +
  "state's) and apply --prune; to manage it again, put its manifest back in git; to stop " +
  'tracking it, platctl state forget <key>.';

const NOTHING_TO_UNDO =
  'no longer in git and nothing on the platform to undo; platctl stops managing it';

function unprunedMessage(actions: readonly ProposedAction[]): string {
  if (actions.length === 0) {
    return 'no longer in git; run with --prune to stop managing it (nothing on the platform to undo)';
  }
  return actions.some((a) => a.type === 'delete')
    ? 'no longer in git; run with --prune to delete it'
    : `no longer in git; run with --prune to undo it (${[...new Set(actions.map((a) => a.type))].join(', ')})`;
}

/**
 * Whether a managed resource missing from git is pruned (`prune`), would be with `--prune`
 * (`unpruned`), is someone else's left on the platform (`left`), or why not.
 */
function pruneVerdict(
  p: Pairing,
  options: PlanOptions,
): 'prune' | 'unpruned' | 'untouched' | 'left' | string {
  const inv = p.inventory;
  if (inv && !inv.createdByPlatctl && p.live) return 'left';
  if (!inv?.createdByPlatctl) return 'untouched';
  if (!p.live && !p.lastApplied) return 'untouched';
  const annotated = p.lastApplied?.metadata.annotations?.[PRUNE_ANNOTATION] === 'disabled';
  if (inv.protected || annotated) {
    return `no longer in git but protected (${PRUNE_ANNOTATION}: disabled); left in place`;
  }
  return options.prune ? 'prune' : 'unpruned';
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

function noop(p: Pairing): ProposedAction {
  return {
    type: 'noop',
    key: p.key,
    target: p.live?.ref ?? refOf(p.desired!),
    reason: { code: 'in-sync', message: 'in sync' },
    changes: [],
  };
}

/**
 * A live object as far as its edges go: kind, name, project and workspace. The kinds the API
 * reads (users, workspaces, services, instances, clusters) take their edges from these alone.
 */
function standIn(l: LiveObject): Manifest {
  const { kind, name, project, workspace } = l.ref;
  return { kind, metadata: { name, project, workspace } } as Manifest;
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
