import { Command } from 'commander';
import { printable } from '../core/terminal-text.js';
import { commandEntries, commandsFor } from './commands/index.js';
import { packageVersion } from './version.js';

export { commandNames } from './commands/index.js';

/**
 * Builds the `platctl` program for a command line (node, script, ...args): the command it names
 * is loaded and registered; every other is a stub with its name and summary, enough for the root
 * help, `--version` and commander's suggestions (so they load no command). `full` loads them all
 * (tests compare the two). Exported so tests can run commands in-process.
 */
export async function buildProgram(
  argv: readonly string[] = [],
  options: { full?: boolean } = {},
): Promise<Command> {
  const program = new Command('platctl')
    .description(
      'Run a cloud platform from git: validate, plan and apply manifests, or keep them converged.',
    )
    .version(packageVersion(), '-v, --version')
    .showHelpAfterError('Run "platctl --help" for usage.')
    .exitOverride();
  const entries = commandEntries();
  const loaded = options.full ? entries : commandsFor(argv.slice(2));
  const registers = new Map(
    await Promise.all(loaded.map(async (c) => [c.name, await c.load()] as const)),
  );
  for (const entry of entries) {
    const register = registers.get(entry.name);
    if (register) register(program);
    else program.command(entry.name).description(entry.summary);
  }
  // a stub lists as its command would: `plan [options] <paths...>`
  const terms = new Map(entries.map((e) => [e.name, e.term]));
  program.configureHelp({ subcommandTerm: (cmd) => terms.get(cmd.name()) ?? cmd.name() });
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
