import type { Command } from 'commander';
import { type EngineFlags, engineOptions } from '../engine-options.js';
import type { RegisterCommand } from './register.js';

/**
 * `platctl plan <paths...>`: shows what apply would change; only reads the platform. With
 * `--detailed-exitcode`: 0 no changes, 2 changes, 1 error. The engine is loaded when it runs,
 * not for `--help`.
 */
export const registerPlan: RegisterCommand = (program: Command) => {
  engineOptions(
    program.command('plan').description('Show what apply would change (reads the platform only)'),
    'plan',
  )
    .option('--detailed-exitcode', 'exit 0 for no changes, 2 for changes, 1 for errors')
    .action(async (paths: string[], flags: EngineFlags & { detailedExitcode?: boolean }) => {
      const [{ engineConfig }, { exitCodeOf, runEngine }] = await Promise.all([
        import('../engine-config.js'),
        import('../engine-run.js'),
      ]);
      const result = await runEngine({
        mode: 'plan',
        paths,
        flags,
        config: await engineConfig(flags),
      });
      process.exitCode = exitCodeOf(result, flags.detailedExitcode);
    });
};
