import { isCelError } from '@bufbuild/cel';
import { type CompiledRule, compileRule } from '../manifests/index.js';
import type { LoadedManifest, PolicyManifest } from '../model/manifest.js';
import type { Plan, PlanDiagnostic, PolicyResult } from '../model/plan.js';
import type { LiveObject } from '../model/provider.js';

/** What policy evaluation needs besides the plan; see {@link evaluatePolicies}. */
export interface PolicyInput {
  readonly manifests: readonly LoadedManifest[];
  readonly live: readonly LiveObject[];
  /** Rule names approved for this run (`apply --approve-policy`). */
  readonly approved?: readonly string[];
  /** True when the run would execute: an unapproved `require-approval` rule then blocks it. */
  readonly applying: boolean;
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
  const planVar = planVariable(plan);
  const live = new Map(input.live.map((l) => [l.key, l.body]));
  const actions = actionTypes(plan);
  const approved = new Set(input.approved ?? []);
  const results: PolicyResult[] = [];
  const diagnostics: PlanDiagnostic[] = [];
  for (const m of input.manifests) {
    if (m.manifest.kind === 'Policy' || m.manifest.kind === 'ChangeWindow') continue;
    const file = m.file ?? m.source.file;
    const vars = {
      object: m.manifest,
      live: live.get(m.key) ?? null,
      file,
      action: actions.get(m.key) ?? 'none',
      plan: planVar,
    };
    for (const { policy, compiled } of rules) {
      if (!matches(compiled, m, file)) continue;
      const failure = failureOf(compiled, vars);
      if (failure === undefined) continue;
      const { effect, name } = compiled.rule;
      const ok = effect === 'require-approval' && approved.has(name);
      const at = m.source;
      const result: PolicyResult = {
        policy,
        rule: name,
        effect,
        outcome: ok ? 'approved' : 'failed',
        key: m.key,
        message: failure,
        file: at.file,
        line: at.line,
        col: at.col,
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
        file: at.file,
        line: at.line,
        col: at.col,
      });
    }
  }
  return { results, diagnostics };
}

/** True when the rule's match selects this manifest (an absent list matches everything). */
function matches(c: CompiledRule, m: LoadedManifest, file: string): boolean {
  const match = c.rule.match;
  if (!match) return true;
  if (match.kinds && !match.kinds.includes(m.manifest.kind)) return false;
  const project = m.manifest.metadata.project;
  if (match.projects && (project === undefined || !match.projects.includes(project))) return false;
  if (match.files && !match.files.some((g) => globRegExp(g).test(file))) return false;
  return true;
}

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

const globs = new Map<string, RegExp>();
const GLOB_TOKENS: Record<string, string> = {
  '**/': '(?:.*/)?',
  '**': '.*',
  '*': '[^/]*',
  '?': '[^/]',
};

/**
 * `*` (not `/`), `**` (anything) and `?`, matched against the whole path or any tail of it that
 * starts at a `/` (`teams/a/**` matches `/repo/teams/a/x.yaml`); cached. Pure.
 */
function globRegExp(glob: string): RegExp {
  let re = globs.get(glob);
  if (re) return re;
  const body = glob
    .split(/(\*\*\/?|\*|\?)/)
    .map((t) => GLOB_TOKENS[t] ?? t.replace(/[.+^${}()|[\]\\]/g, '\\$&'))
    .join('');
  re = new RegExp(`^(?:.*/)?${body}$`);
  globs.set(glob, re);
  return re;
}

/** Each key's planned action type: its first that is not a noop, else `noop`. */
function actionTypes(plan: Plan): Map<string, string> {
  const out = new Map<string, string>();
  for (const a of plan.actions) {
    if (!out.has(a.key) || out.get(a.key) === 'noop') out.set(a.key, a.type);
  }
  return out;
}

/** The `plan` variable: counts by type, by kind and type, by project and type; deletes; GPUs. */
function planVariable(plan: Plan): Record<string, unknown> {
  const actions: Record<string, number> = {};
  const byKind: Record<string, Record<string, number>> = {};
  const byProject: Record<string, Record<string, number>> = {};
  const deletes: string[] = [];
  const bump = (o: Record<string, Record<string, number>>, k: string, t: string) => {
    const inner = o[k] ?? {};
    o[k] = inner;
    inner[t] = (inner[t] ?? 0) + 1;
  };
  for (const a of plan.actions) {
    actions[a.type] = (actions[a.type] ?? 0) + 1;
    bump(byKind, a.target.kind, a.type);
    if (a.target.project !== undefined) bump(byProject, a.target.project, a.type);
    if (a.type === 'delete') deletes.push(a.key);
  }
  const changes = plan.gpu?.changes ?? [];
  const perDay = changes.reduce((n, c) => n + (c.gpuHoursPerDay ?? 0), 0);
  const perMonth = changes.reduce((n, c) => n + (c.gpuHoursPerMonth ?? 0), 0);
  return {
    actions,
    byKind,
    byProject,
    deletes,
    gpu: {
      instances: changes.reduce((n, c) => n + c.instances, 0),
      gpus: perDay / 24,
      gpuHoursPerDay: perDay,
      gpuHoursPerMonth: perMonth,
    },
  };
}
