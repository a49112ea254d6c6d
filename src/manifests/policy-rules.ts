import { type CelResult, celEnv, parse, plan } from '@bufbuild/cel';
import type { PolicyRule } from '../model/governance-kinds.js';
import type { LoadedManifest } from '../model/manifest.js';
import type { Diagnostic } from './diagnostics.js';

/** What a compiled CEL program returns for the variables it is given. */
type CelProgram = (vars: Record<string, unknown>) => CelResult;

/** A rule ready to run: its expression, and its message as literal text and CEL pieces. */
export interface CompiledRule {
  readonly rule: PolicyRule;
  readonly check: CelProgram;
  /** Alternating literal text (even indexes) and programs (odd) of `{{ cel }}` in the message. */
  readonly message: readonly (string | CelProgram)[];
}

const env = celEnv();

/** Compiles one CEL expression; throws the parser's error (`<input>:1:15: found = ...`). */
function compile(expression: string): CelProgram {
  const program = plan(env, parse(expression));
  return (vars) => program(vars as Parameters<typeof program>[0]);
}

/**
 * Compiles a rule: its expression and each `{{ cel }}` of its message. Throws the first CEL
 * syntax error, naming which part it is in (`expression` or `message`). Pure.
 */
export function compileRule(rule: PolicyRule): CompiledRule {
  const check = attempt('expression', () => compile(rule.expression));
  const parts = (rule.message ?? '').split(/\{\{(.*?)\}\}/s);
  const message = parts.map((part, i) =>
    i % 2 === 0 ? part : attempt('message', () => compile(part.trim())),
  );
  return { rule, check, message };
}

/** A CEL syntax error in a rule, and which field it is in. */
class RuleSyntaxError extends Error {
  constructor(
    readonly field: 'expression' | 'message',
    cause: unknown,
  ) {
    super(cause instanceof Error ? cause.message : String(cause));
  }
}

function attempt<T>(field: 'expression' | 'message', fn: () => T): T {
  try {
    return fn();
  } catch (err) {
    throw new RuleSyntaxError(field, err);
  }
}

/**
 * Every rule of a Policy compiled once at validate: a rule whose expression or message does
 * not parse is an error at its line (`file:line:col` of the field, with CEL's own column inside
 * the expression in the message). Pure.
 */
export function policyChecks(m: LoadedManifest): Diagnostic[] {
  const out: Diagnostic[] = [];
  if (m.manifest.kind === 'Policy') {
    m.manifest.spec.rules.forEach((rule, i) => {
      try {
        compileRule(rule);
      } catch (err) {
        const field = err instanceof RuleSyntaxError ? err.field : 'expression';
        const path = ['spec', 'rules', i, field];
        const why = err instanceof Error ? err.message.replace(/^<input>:/, 'CEL ') : String(err);
        out.push({
          severity: 'error',
          code: 'policy-syntax',
          message: `rule ${rule.name}: ${field} does not compile: ${why}`,
          key: m.key,
          path: `spec.rules[${i}].${field}`,
          ...m.positionOf(path),
        });
      }
    });
  }
  return out;
}
