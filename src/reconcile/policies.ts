import { isCelError } from '@bufbuild/cel';
import { type CompiledRule, compileRule } from '../manifests/policy-rules.js';
import type { PolicyManifest } from '../model/governance-kinds.js';
import type { LoadedManifest } from '../model/manifest.js';
import type { Plan, PlanDiagnostic, PolicyResult } from '../model/plan.js';
import type { LiveObject } from '../model/provider.js';
import { matches, subjects } from './policy-subjects.js';
import { actionTypes, type BilledUsage, planVariable } from './policy-variables.js';

/** What policy evaluation needs besides the plan; see {@link evaluatePolicies}. */
export interface PolicyInput {
  readonly manifests: readonly LoadedManifest[];
  readonly live: readonly LiveObject[];
  /** Rule names approved for this run (`apply --approve-policy`). */
  readonly approved?: readonly string[];
  /** True when the run would execute: an unapproved `require-approval` rule then blocks it. */
  readonly applying: boolean;
  /** This month's billed usage per project (`plan.usage`), when a rule asks for it. */
  readonly usage?: BilledUsage;
}

/** True when a rule's expression or message reads `plan.usage`: only then is billing read. */
export function needsUsage(manifests: readonly LoadedManifest[]): boolean {
  return manifests.some(
    (m) =>
      m.manifest.kind === 'Policy' &&
      m.manifest.spec.rules.some((r) =>
        `${r.expression} ${r.message ?? ''}`.includes('plan.usage'),
      ),
  );
}

/** What the Policies section shows and the diagnostics that block or warn. */
export interface PolicyOutcome {
  readonly results: PolicyResult[];
  readonly diagnostics: PlanDiagnostic[];
}

/**
 * Checks every Policy rule against each manifest it matches, with the whole plan in view (pure:
 * no I/O, inputs not mutated). A failed `deny` is a plan error at the manifest's line; `warn` a
 * warning; `require-approval` an error when applying without the rule approved, else a warning.
 * An expression that cannot be evaluated (a missing field, a non-bool) fails its rule.
 */
export function evaluatePolicies(plan: Plan, input: PolicyInput): PolicyOutcome {
  const policies = input.manifests.filter(
    (m): m is LoadedManifest<PolicyManifest> => m.manifest.kind === 'Policy',
  );
  if (policies.length === 0) return { results: [], diagnostics: [] };
  const rules = policies.flatMap((p) =>
    p.manifest.spec.rules.map((r) => ({ policy: p.key, compiled: compileRule(r) })),
  );
  const planVar = planVariable(plan, input.usage);
  const live = new Map(input.live.map((l) => [l.key, l.body]));
  const actions = actionTypes(plan);
  const approved = new Set(input.approved ?? []);
  const results: PolicyResult[] = [];
  const diagnostics: PlanDiagnostic[] = [];
  for (const m of subjects(plan, input.manifests, live)) {
    const file = m.file;
    const vars = {
      object: m.manifest,
      live: live.get(m.key) ?? null,
      file,
      action: actions.get(m.key) ?? 'none',
      plan: planVar,
    };
    for (const { policy, compiled } of rules) {
      // a deletion has no manifest content to check: only rules about the action see it
      if (m.deleted && !READS_ACTION.test(compiled.rule.expression)) continue;
      if (!matches(compiled, m.manifest, file)) continue;
      const failure = failureOf(compiled, vars);
      if (failure === undefined) continue;
      const { effect, name } = compiled.rule;
      const ok = effect === 'require-approval' && approved.has(name);
      const at = m.at();
      const result: PolicyResult = {
        policy,
        rule: name,
        effect,
        outcome: ok ? 'approved' : 'failed',
        key: m.key,
        message: failure,
        ...at,
      };
      results.push(result);
      if (ok) continue;
      const blocks = effect === 'deny' || (effect === 'require-approval' && input.applying);
      const hint =
        effect === 'require-approval' ? ` (needs approval: apply --approve-policy ${name})` : '';
      diagnostics.push({
        severity: blocks ? 'error' : 'warning',
        key: m.key,
        message: `policy ${policy} rule ${name} (${effect}): ${failure}${hint}`,
        ...at,
      });
    }
  }
  return { results, diagnostics };
}

/** An expression that reads the `action` variable (not a field named action). */
const READS_ACTION = /(^|[^.\w])action\b/;

/** Undefined when the expression is true; else the rule's message (or why it could not run). */
function failureOf(c: CompiledRule, vars: Record<string, unknown>): string | undefined {
  const value = c.check(vars);
  if (value === true) return undefined;
  if (isCelError(value)) return `expression could not be evaluated: ${value.message}`;
  if (value !== false) return `expression is not a bool: ${String(value)}`;
  if (c.message.length <= 1 && !c.message[0]) return `rule ${c.rule.name} failed`;
  return c.message
    .map((part) => {
      if (typeof part === 'string') return part;
      const v = part(vars);
      return isCelError(v) ? `<${v.message}>` : String(v);
    })
    .join('');
}
