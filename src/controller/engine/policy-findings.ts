import { relative } from 'node:path';
import type { Plan } from '../../model/plan.js';
import type { PolicyFinding, RunReport } from './ports.js';

/**
 * The plan's failed policy rules as the controller acts on them (pure): `deny` refuses the
 * revision; `require-approval`, in an apply, holds the run until a person approves the rule.
 * Approved results and warnings are neither. `dir` makes positions relative to the revision.
 */
export function policyFindings(
  plan: Plan | undefined,
  mode: 'apply' | 'plan',
  dir: string,
): Pick<RunReport, 'policyHeld' | 'policyDenied'> {
  const failed = (plan?.policies ?? []).filter((p) => p.outcome === 'failed');
  const finding = (p: (typeof failed)[number]): PolicyFinding => ({
    rule: p.rule,
    policy: p.policy,
    key: p.key,
    message: p.message,
    ...(p.file !== undefined
      ? { at: `${relative(dir, p.file) || p.file}:${p.line ?? 1}:${p.col ?? 1}` }
      : {}),
  });
  const denied = failed.filter((p) => p.effect === 'deny').map(finding);
  const held =
    mode === 'apply' ? failed.filter((p) => p.effect === 'require-approval').map(finding) : [];
  return {
    ...(denied.length > 0 ? { policyDenied: denied } : {}),
    ...(held.length > 0 ? { policyHeld: held } : {}),
  };
}
