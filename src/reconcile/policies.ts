import { isCelError } from '@bufbuild/cel';
import { type CompiledRule, compileRule } from '../manifests/policy-rules.js';
import type { LoadedManifest, Manifest, PolicyManifest } from '../model/manifest.js';
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
  /** This month's billed usage per project (`plan.usage`), when a rule asks for it. */
  readonly usage?: BilledUsage;
}

/** Billed hours and GPU-hours per project since the month began (`plan.usage.<project>`). */
export type BilledUsage = Readonly<Record<string, { hours: number; gpuHours: number }>>;

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
  for (const m of subjects(plan, input, live)) {
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

/** What a rule is checked for: a manifest of the run, or a resource the plan deletes. */
interface Subject {
  readonly key: string;
  readonly manifest: Manifest;
  /** The manifest's file; empty for a deletion (its manifest is gone from the files). */
  readonly file: string;
  /** A resource the plan deletes that no manifest declares. */
  readonly deleted?: true;
  /** Where to report it (found on first use: may re-parse the file). */
  at(): { file?: string; line?: number; col?: number };
}

/** An expression that reads the `action` variable (not a field named action). */
const READS_ACTION = /(^|[^.\w])action\b/;

/**
 * Every manifest of the run but platctl's own governance kinds, then each resource the plan
 * deletes that no manifest declares, as the platform has it (`object` and `live` its live
 * object, `action` `delete`): the rules that read `action` see them.
 */
function subjects(
  plan: Plan,
  input: PolicyInput,
  live: ReadonlyMap<string, Record<string, unknown>>,
): Subject[] {
  const out: Subject[] = input.manifests
    .filter((m) => m.manifest.kind !== 'Policy' && m.manifest.kind !== 'ChangeWindow')
    .map((m) => ({
      key: m.key,
      manifest: m.manifest,
      file: m.file ?? m.source.file,
      at: () => ({ file: m.source.file, line: m.source.line, col: m.source.col }),
    }));
  const declared = new Set(input.manifests.map((m) => m.key));
  for (const a of plan.actions) {
    const body = live.get(a.key);
    if (a.type !== 'delete' || declared.has(a.key) || !body) continue;
    declared.add(a.key);
    const manifest = body as unknown as Manifest;
    out.push({ key: a.key, manifest, file: '', deleted: true, at: () => ({}) });
  }
  return out;
}

/** True when the rule's match selects this manifest (an absent list matches everything). */
function matches(c: CompiledRule, m: Manifest, file: string): boolean {
  const match = c.rule.match;
  if (!match) return true;
  if (match.kinds && !match.kinds.includes(m.kind)) return false;
  const project = m.metadata?.project;
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

/**
 * The `plan` variable: counts by type, by kind and type, by project and type; deletes; GPUs;
 * the cost they add (with a price file); this month's billed usage per project (when read).
 */
function planVariable(plan: Plan, usage?: BilledUsage): Record<string, unknown> {
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
  const priced = changes.filter((c) => c.costPerDay !== undefined);
  const cost = priced.length
    ? {
        cost: {
          perDay: priced.reduce((n, c) => n + (c.costPerDay ?? 0), 0),
          perMonth: priced.reduce((n, c) => n + (c.costPerMonth ?? 0), 0),
          currency: plan.gpu?.currency ?? '',
        },
      }
    : {};
  return {
    actions,
    byKind,
    byProject,
    deletes,
    ...cost,
    ...(usage ? { usage } : {}),
    gpu: {
      instances: changes.reduce((n, c) => n + c.instances, 0),
      gpus: perDay / 24,
      gpuHoursPerDay: perDay,
      gpuHoursPerMonth: perMonth,
    },
  };
}
