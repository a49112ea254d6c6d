import type { LoadedManifest, Manifest } from '../model/manifest.js';
import type { LiveObject } from '../model/provider.js';
import { type PlannerRegistry, plan as planActions } from './planner.js';
import { evaluatePolicies } from './policies.js';

/** One rule expected to fail for one manifest (every other rule and manifest passes). */
export interface ExpectedFailure {
  readonly rule: string;
  readonly key: string;
}

/** What `platctl policy test` found for one test case. */
export interface PolicyTestResult {
  readonly name: string;
  /** Expected failures that did not happen, as `rule key`. */
  readonly missing: string[];
  /** Failures that were not expected, as `rule key: message`. */
  readonly unexpected: string[];
}

/**
 * Runs the policies among `manifests` against the rest as a plan would see them, then compares
 * the failed rules with `expected` (pure). The platform is `live` (manifest-form fixtures: each
 * rule sees its manifest's as `live`), all of it managed by platctl and pruned: a live object no
 * manifest declares is planned for deletion. With no `live`, every manifest is created (`live`
 * is null and `action` what creating it takes).
 */
export function runPolicyTest(
  name: string,
  manifests: readonly LoadedManifest[],
  expected: readonly ExpectedFailure[],
  providers: PlannerRegistry,
  live: readonly LoadedManifest[] = [],
): PolicyTestResult {
  const objects = live.map((l) => liveObjectOf(l.key, l.manifest));
  const planned = planActions(
    manifests.map((m) => m.manifest).filter((m) => m.kind !== 'Policy'),
    objects,
    new Map(),
    {
      providers,
      prune: true,
      forceDeletes: true,
      inventory: objects.map((o) => ({
        key: o.key,
        kind: o.ref.kind,
        ref: o.ref,
        createdByPlatctl: true,
        protected: false,
      })),
    },
  );
  const { results } = evaluatePolicies(planned, {
    manifests,
    live: objects,
    applying: false,
  });
  const id = (f: ExpectedFailure) => `${f.rule} ${f.key}`;
  const got = new Map(results.map((r) => [id(r), r.message]));
  const want = new Set(expected.map(id));
  return {
    name,
    missing: [...want].filter((k) => !got.has(k)),
    unexpected: [...got].filter(([k]) => !want.has(k)).map(([k, why]) => `${k}: ${why}`),
  };
}

/** A fixture manifest as the platform would show it: its managed fields, deployed and on. */
function liveObjectOf(key: string, m: Manifest): LiveObject {
  const { kind, metadata } = m;
  return {
    key,
    ref: {
      kind,
      name: metadata.name,
      ...(metadata.project !== undefined ? { project: metadata.project } : {}),
      ...(metadata.workspace !== undefined ? { workspace: metadata.workspace } : {}),
      ...(kind === 'ComputeInstance' ? { computeType: m.spec.computeType } : {}),
    },
    body: m as unknown as Record<string, unknown>,
    status: 'deployed',
    ...(kind === 'ComputeInstance' ? { powerState: 'on' as const } : {}),
  };
}
