import type { Command } from 'commander';
import { type EngineFlags, engineOptions } from '../engine-options.js';
import type { RegisterCommand } from './register.js';

interface ApplyFlags extends EngineFlags {
  autoApprove?: boolean;
  lockTimeout?: number;
  approvePolicy?: string[];
  outsideWindow?: string;
}

/**
 * `platctl apply <paths...>`: plans, shows the plan, asks on a terminal (unless
 * `--auto-approve`), then executes exactly that plan. Exit 1 when anything failed. The engine is
 * loaded when it runs, not for `--help`.
 */
export const registerApply: RegisterCommand = (program: Command) => {
  engineOptions(
    program.command('apply').description('Plan, confirm, and apply the changes'),
    'apply',
  )
    .option('--auto-approve', 'apply without asking')
    .option('--lock-timeout <seconds>', 'wait this long for another apply to finish', Number)
    .option(
      '--approve-policy <rule>',
      'approve a require-approval policy rule for this apply (repeatable)',
      (v: string, all: string[] = []) => [...all, v],
    )
    .option(
      '--outside-window <reason>',
      'apply actions outside their change window; the reason is kept in the run history',
    )
    .action(async (paths: string[], flags: ApplyFlags) => {
      const [{ engineConfig }, { exitCodeOf, runEngine }] = await Promise.all([
        import('../engine-config.js'),
        import('../engine-run.js'),
      ]);
      const result = await runEngine({
        mode: 'apply',
        paths,
        flags,
        config: await engineConfig(flags),
        ...(flags.autoApprove ? { autoApprove: true } : {}),
        ...(flags.lockTimeout ? { lockTimeoutMs: flags.lockTimeout * 1000 } : {}),
        lockWaitHint: 'use --lock-timeout to wait longer',
        ...(flags.approvePolicy ? { approvedPolicies: flags.approvePolicy } : {}),
        ...(flags.outsideWindow ? { outsideWindow: flags.outsideWindow } : {}),
      });
      process.exitCode = exitCodeOf(result);
    });
};
