import type { LoadedManifest } from '../model/manifest.js';
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
 * Runs the policies among `manifests` against the rest as a plan from nothing would see them:
 * every manifest planned against an empty platform (no live objects, so `live` is null and
 * `action` is what creating it takes), then compares the failed rules with `expected` (pure).
 */
export function runPolicyTest(
  name: string,
  manifests: readonly LoadedManifest[],
  expected: readonly ExpectedFailure[],
  providers: PlannerRegistry,
): PolicyTestResult {
  const planned = planActions(
    manifests.map((m) => m.manifest),
    [],
    new Map(),
    { providers },
  );
  const { results } = evaluatePolicies(planned, { manifests, live: [], applying: false });
  const id = (f: ExpectedFailure) => `${f.rule} ${f.key}`;
  const got = new Map(results.map((r) => [id(r), r.message]));
  const want = new Set(expected.map(id));
  return {
    name,
    missing: [...want].filter((k) => !got.has(k)),
    unexpected: [...got].filter(([k]) => !want.has(k)).map(([k, why]) => `${k}: ${why}`),
  };
}
