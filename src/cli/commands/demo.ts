import type { Command } from 'commander';
import type { RegisterCommand } from './register.js';

/** `platctl demo`: the main job end to end against an in-process emulator; exits 0 on success. */
export const registerDemo: RegisterCommand = (program: Command) => {
  program
    .command('demo')
    .description('Start an in-process emulator, then plan and apply examples/manifests/ against it')
    .action(async () => {
      // the emulator and the engine are loaded when the demo runs, not for --help
      process.exitCode = await (await import('../demo-run.js')).runDemo();
    });
};
