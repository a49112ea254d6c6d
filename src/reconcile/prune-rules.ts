/** The prune rules of the planner (pure): what a resource no longer in git becomes, and the limit. */
import type { ProposedAction } from '../model/action.js';
import { PRUNE_ANNOTATION } from '../model/manifest.js';
import type { Pairing } from './pair.js';

/** The planner's options that decide what a prune does. */
export interface PruneOptions {
  /** Delete managed resources no longer in git. @default false */
  readonly prune?: boolean;
  /** More prune deletions than this is a plan error unless {@link forceDeletes}. @default 5 */
  readonly maxDeletes?: number;
  readonly forceDeletes?: boolean;
  /**
   * What a prune over {@link maxDeletes} does: `block` makes it a plan error (nothing runs, the
   * CLI's choice); `hold` leaves only those deletions out and says so in `Plan.pruneHeld`
   * (the controller's choice: everything else, drift healing included, still runs). @default 'block'
   */
  readonly overLimit?: 'block' | 'hold';
  /** Keys whose prune deletion a person approved: they do not count against the limit. @default [] */
  readonly approvedDeletes?: readonly string[];
}

const DEFAULT_MAX_DELETES = 5;

/**
 * The limit on prune deletions: within it (or forced) every prune is kept; over it, `block` keeps
 * them with an error diagnostic and `hold` drops the unapproved ones with a warning.
 */
export function pruneGuard(prunes: readonly ProposedAction[], options: PruneOptions) {
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

const LEFT = 'removed from git but not created by this state: left on the platform, never pruned';

/** What the plan says of its objects left on the platform, and how to deal with them. */
export const LEFT_HOW =
  `${LEFT}. Delete one on the platform, or adopt it (platctl import --adopt --project <project> ` +
  "--kind <kind> --out <dir>: every object of that kind and project becomes this state's) and " +
  'apply --prune; put its manifest back in git to manage it again; platctl state forget <key> ' +
  'stops tracking it.';

/**
 * What is said of one object left on the platform, with the commands for its own key (pure):
 * `removed from git but not created by this state: left on the platform, never pruned; ...`.
 */
export function leftHint(key: string): string {
  const [kind, ...rest] = key.split('/');
  const project = kind === 'User' ? '' : ` --project ${rest[0]}`;
  const every = kind === 'User' ? 'every User' : `every ${kind} of ${rest[0]}`;
  return (
    `${LEFT}; delete it on the platform, or adopt it (platctl import --adopt${project} --kind ` +
    `${kind} --out <dir> adopts ${every}) and apply --prune; or stop tracking it: platctl state ` +
    `forget ${key}`
  );
}

export const NOTHING_TO_UNDO =
  'no longer in git and nothing on the platform to undo; platctl stops managing it';

export function unprunedMessage(actions: readonly ProposedAction[]): string {
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
export function pruneVerdict(
  p: Pairing,
  options: PruneOptions,
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
