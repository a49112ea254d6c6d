/**
 * Policy evaluation cost against plan time (issue 25: ≤ 10 % of plan time). Writes the generated
 * set of N manifests (bench/manifest-set.ts) plus one Policy of 20 rules, loads and validates it,
 * plans it against an empty platform (the pure planner: no HTTP, so this is the least a plan
 * costs), then evaluates the policies. Prints the median of `--runs` timings of each stage.
 *
 *   npx tsx bench/policy.ts [--resources 10000] [--runs 5]
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { loadAndValidate } from '../src/manifests/index.js';
import { createProviderRegistry } from '../src/providers/index.js';
import { plan } from '../src/reconcile/planner.js';
import { evaluatePolicies } from '../src/reconcile/policies.js';
import { writeManifestSet } from './manifest-set.js';

const { values } = parseArgs({
  options: {
    resources: { type: 'string', default: '10000' },
    runs: { type: 'string', default: '5' },
  },
});
const total = Number(values.resources);
const runs = Number(values.runs);

/** 20 rules of the shapes docs/governance.md shows; all pass on the generated set but are evaluated. */
const RULES = Array.from({ length: 20 }, (_, i) => {
  const shapes = [
    `object.metadata.name.size() < 64`,
    `!has(object.metadata.labels) || object.metadata.labels.all(k, k.size() < 64)`,
    `action != 'delete' || object.kind != 'Cluster'`,
    `plan.gpu.gpuHoursPerDay <= 1000000.0`,
    `file.endsWith('.yaml')`,
  ];
  return `    - name: rule-${i}
      expression: "${shapes[i % shapes.length]}"
      effect: ${i % 2 ? 'warn' : 'deny'}
      message: "{{ object.metadata.name }} in {{ file }}"`;
}).join('\n');

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!;

const dir = mkdtempSync(join(tmpdir(), 'platctl-policy-bench-'));
try {
  writeManifestSet(dir, total, 100);
  writeFileSync(
    join(dir, 'zz-policy.yaml'),
    `apiVersion: platctl.io/v1alpha1\nkind: Policy\nmetadata:\n  name: bench\nspec:\n  rules:\n${RULES}\n`,
  );
  const loaded = await loadAndValidate({ paths: [dir], env: {} });
  const errors = loaded.diagnostics.filter((d) => d.severity === 'error');
  if (errors.length) throw new Error(`invalid set: ${errors[0]!.message}`);
  const providers = createProviderRegistry();
  const planMs: number[] = [];
  const policyMs: number[] = [];
  let failed = 0;
  for (let r = 0; r < runs; r++) {
    let t = performance.now();
    const planned = plan(
      loaded.manifests.map((m) => m.manifest),
      [],
      new Map(),
      { providers },
    );
    planMs.push(performance.now() - t);
    t = performance.now();
    const out = evaluatePolicies(planned, {
      manifests: loaded.manifests,
      live: [],
      applying: false,
    });
    policyMs.push(performance.now() - t);
    failed = out.results.length;
  }
  const [p, e] = [median(planMs), median(policyMs)];
  const evaluations = (loaded.manifests.length - 1) * 20;
  console.log(
    JSON.stringify({
      resources: loaded.manifests.length - 1,
      rules: 20,
      evaluations,
      failed,
      planMs: Math.round(p),
      policyMs: Math.round(e),
      usPerEvaluation: Number(((e * 1000) / evaluations).toFixed(2)),
      ratio: Number((e / p).toFixed(2)),
    }),
  );
} finally {
  rmSync(dir, { recursive: true, force: true });
}
