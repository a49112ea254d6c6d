import { Command } from 'commander';
import { printable } from '../core/terminal-text.js';
import { commandsFor } from './commands/index.js';

export { commandNames } from './commands/index.js';

import { packageVersion } from './version.js';

/**
 * Builds the `platctl` program for a command line (node, script, ...args): with only the command
 * it names, or every command when it names none. Exported so tests can run commands in-process.
 */
export async function buildProgram(argv: readonly string[] = []): Promise<Command> {
  const program = new Command('platctl')
    .description(
      'Run a cloud platform from git: validate, plan and apply manifests, or keep them converged.',
    )
    .version(packageVersion(), '-v, --version')
    .showHelpAfterError('Run "platctl --help" for usage.')
    .exitOverride();
  const registers = await Promise.all(commandsFor(argv.slice(2)).map((c) => c.load()));
  for (const register of registers) register(program);
  // a usage error says what is wrong and where help is; the whole help would bury it
  for (const command of program.commands) {
    command.showHelpAfterError(`Run "platctl ${command.name()} --help" for usage.`);
  }
  return program;
}

/** Runs platctl with the given argv (node, script, ...args); sets process.exitCode. */
export async function main(argv: readonly string[]): Promise<void> {
  try {
    await (await buildProgram(argv)).parseAsync([...argv]);
  } catch (err) {
    const code = (err as { code?: string }).code;
    if (code === 'commander.helpDisplayed' || code === 'commander.version') return;
    if (typeof code === 'string' && code.startsWith('commander.')) {
      process.exitCode = 2;
      return;
    }
    const message = err instanceof Error ? err.message : String(err);
    // a message may quote the platform, git or the command line
    process.stderr.write(`error: ${printable(message, { multiline: true })}\n`);
    process.exitCode = 1;
  }
}
