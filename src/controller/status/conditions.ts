import type { Kind } from '../../model/manifest.js';
import type { RunReport } from '../engine/ports.js';
import { type ConditionType, type RunMode, verdictOf } from './verdict.js';

export { CONDITION_TYPES, type ConditionType, type RunMode } from './verdict.js';

/** A resource's condition with its reason (CamelCase) and when it last changed. JSON-safe. */
export interface ResourceCondition {
  readonly key: string;
  readonly kind: Kind;
  readonly project?: string;
  readonly workspace?: string;
  readonly name: string;
  readonly condition: ConditionType;
  /**
   * `Applied`, `InSync`, `DriftCorrected`, `Drift`, `ActionFailed`, `DependencyFailed`,
   * `PolicyDenied`, `PolicyHeld`, ...
   */
  readonly reason: string;
  readonly message?: string;
  /** ISO time the condition or reason last changed. */
  readonly lastTransitionTime: string;
  /** Position in the engine's plan order. */
  readonly order: number;
  /** Identity keys this resource waits for. */
  readonly dependsOn: readonly string[];
}

/**
 * Each resource's condition after a run (pure): the resources of the report, the deferred keys
 * and the held prune, in plan order. A condition keeps its `lastTransitionTime` from `previous`
 * while its type and reason stay the same. A resource deleted by the run has no condition.
 */
export function conditionsOf(
  report: RunReport,
  mode: RunMode,
  previous: readonly ResourceCondition[],
  nowIso: string,
): ResourceCondition[] {
  const before = new Map(previous.map((c) => [c.key, c]));
  const byKey = new Map<string, RunReport['resources'][number][]>();
  for (const r of report.resources) {
    const list = byKey.get(r.key);
    if (list) list.push(r);
    else byKey.set(r.key, [r]);
  }
  const extra = [
    ...(report.deferred ?? []),
    ...(report.postponed ?? []),
    ...(report.pruneHeld?.keys ?? []),
    ...(report.leftOnPlatform?.keys ?? []),
    ...(report.policyDenied ?? report.policyHeld ?? []).map((f) => f.key),
    ...(report.windowHolds ?? []).map((h) => h.key),
  ];
  for (const key of extra) if (!byKey.has(key)) byKey.set(key, []);
  const out: ResourceCondition[] = [];
  let order = 0;
  for (const [key, actions] of byKey) {
    const verdict = verdictOf(key, actions, report, mode);
    if (!verdict) continue;
    const first = actions[0];
    const ref = first?.ref ?? refFromKey(key);
    const prev = before.get(key);
    const same = prev?.condition === verdict.condition && prev.reason === verdict.reason;
    const next: ResourceCondition = {
      key,
      kind: ref.kind,
      ...(ref.project !== undefined ? { project: ref.project } : {}),
      ...(ref.workspace !== undefined ? { workspace: ref.workspace } : {}),
      name: ref.name,
      ...verdict,
      lastTransitionTime: same ? prev.lastTransitionTime : nowIso,
      order: order++,
      dependsOn: dependsOnOf(actions),
    };
    // Unchanged: the previous object itself, so a resync of thousands keeps no new copies (each
    // would outlive the run, be promoted to the old space and become garbage a run later).
    out.push(prev && sameCondition(prev, next) ? prev : next);
  }
  return out;
}

/** The keys a resource's actions wait for, each once (one action's own list when it has one). */
function dependsOnOf(actions: RunReport['resources']): readonly string[] {
  // most resources have one action listing each key once: its own list, no copy
  const only = actions.length === 1 ? (actions[0]?.dependsOn ?? []) : undefined;
  if (only && (only.length < 2 || new Set(only).size === only.length)) return only;
  return [...new Set(actions.flatMap((a) => a.dependsOn ?? []))];
}

function sameCondition(a: ResourceCondition, b: ResourceCondition): boolean {
  if (countKeys(a) !== countKeys(b)) return false;
  for (const k in b) {
    if (k === 'dependsOn') {
      if (a.dependsOn.length !== b.dependsOn.length) return false;
      for (let i = 0; i < a.dependsOn.length; i++)
        if (a.dependsOn[i] !== b.dependsOn[i]) return false;
    } else if (a[k as keyof ResourceCondition] !== b[k as keyof ResourceCondition]) return false;
  }
  return true;
}

function countKeys(c: ResourceCondition): number {
  let n = 0;
  for (const k in c) if (Object.hasOwn(c, k)) n++;
  return n;
}

/** A best guess at a ref from an identity key (`Kind/project[/workspace]/name`). */
function refFromKey(key: string): {
  kind: Kind;
  name: string;
  project?: string;
  workspace?: string;
} {
  const [kind, ...rest] = key.split('/');
  const name = rest.pop() ?? key;
  return {
    kind: kind as Kind,
    name,
    ...(rest[0] !== undefined ? { project: rest[0] } : {}),
    ...(rest[1] !== undefined ? { workspace: rest[1] } : {}),
  };
}

/** Resources per condition, with the total. */
export function countConditions(
  conditions: readonly ResourceCondition[],
): Record<ConditionType, number> & { total: number } {
  const counts = {
    Ready: 0,
    Progressing: 0,
    Degraded: 0,
    Drifted: 0,
    Suspended: 0,
    Orphaned: 0,
    total: 0,
  };
  for (const c of conditions) {
    counts[c.condition]++;
    counts.total++;
  }
  return counts;
}
