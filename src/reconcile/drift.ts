import { isDeepStrictEqual } from 'node:util';
import type { ProposedAction } from '../model/action.js';
import type { Manifest } from '../model/manifest.js';

/**
 * Marks as drift the actions a resource needs only because the platform moved (pure; returns new
 * actions, never mutates). When git still declares exactly what was last applied in full (the
 * last-applied manifest is written only once every action of its key succeeded), any action on
 * that key answers a change made outside git: a field edited (already `drift`), the object
 * deleted (`absent`), powered off or on (`power-state`), or marked failed (`not-deployed`). Each
 * such action keeps its type and gets the reason `drift`, so self-heal, status, logs and metrics
 * see one kind of thing. Without a last-applied manifest, or when git changed, nothing is marked.
 */
export function markDrift(
  actions: readonly ProposedAction[],
  desired: Manifest,
  lastApplied: Manifest | undefined,
): ProposedAction[] {
  // nothing to mark (an in-sync resource: no action at all) needs no comparison
  if (
    lastApplied === undefined ||
    actions.every(unmarkable) ||
    !isDeepStrictEqual(plain(desired), plain(lastApplied))
  ) {
    return [...actions];
  }
  return actions.map((a) =>
    unmarkable(a)
      ? a
      : {
          ...a,
          reason: {
            code: 'drift',
            message: `${a.reason.message} (changed on the platform outside git)`,
          },
        },
  );
}

function unmarkable(a: ProposedAction): boolean {
  return a.reason.code === 'drift' || a.reason.code === 'in-sync';
}

/** The manifest as JSON sees it: last-applied manifests went through JSON in the state store. */
function plain(m: Manifest): unknown {
  return JSON.parse(JSON.stringify(m));
}
