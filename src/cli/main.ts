import { Command } from 'commander';
import { commands } from './commands/index.js';
import { packageVersion } from './version.js';

/** Builds the `platctl` program. Exported so tests can run commands in-process. */
export function buildProgram(): Command {
  const program = new Command('platctl')
    .description(
      'Run a cloud platform from git: validate, plan and apply manifests, or keep them converged.',
    )
    .version(packageVersion(), '-v, --version')
    .showHelpAfterError('Run "platctl --help" for usage.')
    .exitOverride();
  for (const register of commands) register(program);
  // a usage error says what is wrong and where help is; the whole help would bury it
  for (const command of program.commands) {
    command.showHelpAfterError(`Run "platctl ${command.name()} --help" for usage.`);
  }
  return program;
}

/** Runs platctl with the given argv (node, script, ...args); sets process.exitCode. */
export async function main(argv: readonly string[]): Promise<void> {
  try {
    await buildProgram().parseAsync([...argv]);
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'commander.helpDisplayed' || code === 'commander.version') return;
    if (typeof code === 'string' && code.startsWith('commander.')) {
      process.exitCode = 2;
      return;
    }
    const message = err instanceof Error ? err.message : String(err);
    process.stderr.write(`error: ${message}\n`);
    process.exitCode = 1;
  }
}
