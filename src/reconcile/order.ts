import { runSteps, type Steps } from '../core/slices.js';
import type { Action } from '../model/action.js';
import { eachKeyEdge, spelled } from '../model/edges.js';
import type { Manifest } from '../model/manifest.js';
import type { PlanDiagnostic } from '../model/plan.js';
import { type DepList, DepLists } from './dep-lists.js';
import { copyOf } from './ids.js';

export interface Ordered {
  readonly actions: Action[];
  readonly diagnostics: PlanDiagnostic[];
}

/**
 * Fills each action's `dependsOn` (pure). Actions of one key run in the order proposed (CAPI
 * before CAPG, one request each); across keys, changes follow {@link keyEdges} and removals
 * (deletes, and a prune's unassign) go in reverse: a role is taken back before its user is
 * deleted, an instance deleted before its workspace. A controller update on a cluster created in
 * the same run is deferred to the next run (warning). A cycle is an error diagnostic printing its
 * path `a -> b -> a`.
 */
export function order(input: readonly Action[], manifests: ReadonlyMap<string, Manifest>): Ordered {
  return runSteps(orderSteps(input, manifests));
}

/**
 * {@link order} as {@link Steps}: the same result, with a pause between actions. Pure. `grouped`:
 * `input`'s actions by key, each key's in their order (what `identify` gives with them), taken
 * instead of grouping them again when no action is deferred.
 */
export function* orderSteps(
  input: readonly Action[],
  manifests: ReadonlyMap<string, Manifest>,
  grouped?: ReadonlyMap<string, readonly Action[]>,
): Steps<Ordered> {
  const diagnostics: PlanDiagnostic[] = [];
  const actions = deferControllerUpdates(input, diagnostics);
  const byKey = grouped && actions.length === input.length ? grouped : groupByKey(actions);
  yield;
  const deps = new DepLists();
  for (const a of actions) for (const d of a.dependsOn) deps.add(a.id, d);
  // one key: proposal order, CAPI before CAPG whatever the provider said
  for (const list of byKey.values()) {
    if (list.length === 1) continue;
    yield;
    const sorted = [...list].sort((a, b) => componentRank(a) - componentRank(b));
    for (let i = 1; i < sorted.length; i++) deps.add(sorted[i]!.id, sorted[i - 1]!.id);
  }
  // each key's actions split once into changes and removals, when an edge first reaches the key:
  // the edges below are millions in a large platform (a project's VPCs before each of its
  // instances), and `removes` per pair was most of the plan's time there; a key no edge reaches
  // (most of a no-op plan of 100,000) is never split
  const split = new Map<string, Split>();
  const splitOf = (key: string, list: readonly Action[]): Split => {
    let s = split.get(key);
    if (s === undefined) {
      const changes = list.filter((a) => !removes(a));
      s = {
        changes: changes.map((a) => deps.of(a.id)),
        ranks: changes.map((a) => deps.rankOf(a.id)),
        removals: list.filter(removes),
      };
      split.set(key, s);
    }
    return s;
  };
  eachKeyEdge(manifests, (beforeKey, afterKey) => {
    const beforeList = byKey.get(beforeKey);
    const afterList = byKey.get(afterKey);
    if (beforeList === undefined || afterList === undefined) return;
    const before = splitOf(beforeKey, beforeList);
    const after = splitOf(afterKey, afterList);
    for (const into of after.changes) for (const r of before.ranks) into.addRank(r);
    // removals in reverse: what depends on a resource goes first (a role before its user)
    for (const b of before.removals) for (const a of after.removals) deps.add(b.id, a.id);
  });
  yield;
  const result: Action[] = [];
  for (const a of actions) {
    yield;
    const dependsOn = deps.sorted(a.id);
    // an action that waits on nothing is given back as it came (one copy less per noop)
    if (dependsOn.length === 0 && a.dependsOn.length === 0) {
      result.push(a);
      continue;
    }
    const copy = copyOf(a);
    copy.dependsOn = dependsOn;
    result.push(copy as unknown as Action);
  }
  const cycle = findCycle(result);
  yield;
  if (cycle) {
    // in resources, as people name them: `Workspace p/a -> Workspace p/b -> Workspace p/a`
    const byId = new Map(result.map((a) => [a.id, a.key]));
    const keys = cycle
      .map((id) => byId.get(id)!)
      .filter((k, i, all) => i === 0 || k !== all[i - 1]);
    diagnostics.push({
      severity: 'error',
      key: keys[0]!,
      message: `dependency cycle: ${keys.map(spelled).join(' -> ')}`,
    });
  }
  return { actions: result, diagnostics };
}

/** A key's actions as the edges use them: its changes (their lists, their ids) and removals. */
interface Split {
  readonly changes: DepList[];
  readonly ranks: number[];
  readonly removals: Action[];
}

/** Each key's actions, in their order. */
function groupByKey(actions: readonly Action[]): Map<string, Action[]> {
  const byKey = new Map<string, Action[]>();
  for (const a of actions) {
    const list = byKey.get(a.key);
    if (list) list.push(a);
    else byKey.set(a.key, [a]);
  }
  return byKey;
}

/**
 * True for an action that takes a resource off the platform: a delete, or a prune that is not one
 * (a pruned assignment's unassign).
 */
function removes(a: Action): boolean {
  return a.type === 'delete' || a.reason.code === 'removed-from-git';
}

function componentRank(a: Action): number {
  return a.type === 'controller-update' ? (a.component === 'capi' ? 0 : 1) : -1;
}

function deferControllerUpdates(
  actions: readonly Action[],
  diagnostics: PlanDiagnostic[],
): Action[] {
  const created = new Set(
    actions.filter((a) => a.type === 'create' && a.target.kind === 'Cluster').map((a) => a.key),
  );
  return actions.filter((a) => {
    if (a.type !== 'controller-update') return true;
    const cluster = a.key.replace(/^ClusterControllers\//, 'Cluster/');
    if (!created.has(cluster)) return true;
    diagnostics.push({
      severity: 'warning',
      code: 'postponed',
      key: a.key,
      message: `${a.component} update to ${a.version} deferred to the next run: ${cluster} is created in this run`,
    });
    return false;
  });
}

/** The first dependency cycle found, as action ids with the first repeated at the end. */
function findCycle(actions: readonly Action[]): string[] | undefined {
  // an action that waits on nothing is on no cycle: left out of the walk, it ends no path
  const waiting = actions.filter((a) => a.dependsOn.length > 0);
  const deps = new Map(waiting.map((a) => [a.id, a.dependsOn]));
  const state = new Map<string, 'open' | 'done'>();
  const stack: string[] = [];
  const visit = (id: string): string[] | undefined => {
    if (state.get(id) === 'done') return undefined;
    if (state.get(id) === 'open') return [...stack.slice(stack.indexOf(id)), id];
    state.set(id, 'open');
    stack.push(id);
    for (const d of deps.get(id) ?? []) {
      const found = deps.has(d) ? visit(d) : undefined;
      if (found) return found;
    }
    stack.pop();
    state.set(id, 'done');
    return undefined;
  };
  for (const a of waiting) {
    const found = visit(a.id);
    if (found) return found.reverse();
  }
  return undefined;
}
