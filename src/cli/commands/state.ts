import type { Command } from 'commander';
import { outputOption, STATE_HELP } from '../flags.js';
import type { MigrateFlags } from '../state-run.js';
import type { RegisterCommand } from './register.js';

/**
 * `platctl state ...`: maintenance of the state store. `state unlock [id]` shows who holds the
 * run lease and, given that holder's id, breaks it (Terraform's force-unlock): for a holder that
 * died where platctl cannot see it (another host, a pid reused). A holder that still runs loses
 * the lease at its next renewal and stops writing. `state migrate` copies a store into an empty
 * one (SQLite to PostgreSQL). What each does is in `state-run.ts` and `state-entries.ts`.
 */
export const registerState: RegisterCommand = (program: Command) => {
  const state = program.command('state').description('Maintain the state store');
  // each action loads the state store when it runs, not for --help
  state
    .command('list')
    .description('List what the state store manages: created, found, pending')
    .addOption(outputOption(['text', 'json']))
    .option('--state <path|url>', STATE_HELP)
    .action(async (flags: { state?: string; output: string }) => {
      await (await import('../state-entries.js')).listEntries(flags);
    });
  state
    .command('forget')
    .description('Stop managing one key (the platform is not touched); asks first')
    .argument('<key>', 'the identity key, as `platctl state list` shows it')
    .option('--yes', 'do not ask (scripts)')
    .option('--state <path|url>', STATE_HELP)
    .action(async (key: string, flags: { state?: string; yes?: boolean }) => {
      await (await import('../state-entries.js')).forgetEntry(key, flags);
    });
  state
    .command('unlock')
    .description('Show who holds the run lease; with the holder id, break it')
    .argument('[id]', 'the holder id shown by a "locked" error or by `platctl state unlock`')
    .option('--state <path|url>', STATE_HELP)
    .action(async (id: string | undefined, flags: { state?: string }) => {
      await (await import('../state-run.js')).unlockState(id, flags);
    });
  state
    .command('migrate')
    .description('Copy a state store into an empty one (e.g. SQLite to PostgreSQL)')
    .requiredOption('--from <path|url>', 'the state to copy (a SQLite file, or a URL)')
    .option(
      '--to <url>',
      'the empty store to fill (default $PLATCTL_STATE_URL_FILE or $PLATCTL_STATE_URL)',
    )
    .action(async (flags: MigrateFlags) => {
      await (await import('../state-run.js')).migrateState(flags);
    });
};
