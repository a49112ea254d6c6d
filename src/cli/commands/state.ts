import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { systemClock } from '../../core/clock.js';
import { PlatctlError } from '../../core/errors.js';
import { copyState } from '../../state/copy.js';
import {
  describeHolder,
  isPostgresUrl,
  openState,
  redactUrl,
  resolveStateTarget,
} from '../../state/index.js';
import { STATE_HELP } from '../flags.js';
import type { RegisterCommand } from './register.js';
import { registerStateEntries } from './state-entries.js';

interface MigrateFlags {
  from: string;
  to?: string;
}

/**
 * `platctl state ...`: maintenance of the state store. `state unlock [id]` shows who holds the
 * run lease and, given that holder's id, breaks it (Terraform's force-unlock): for a holder that
 * died where platctl cannot see it (another host, a pid reused). A holder that still runs loses
 * the lease at its next renewal and stops writing. `state migrate` copies a store into an empty
 * one (SQLite to PostgreSQL). `state list` and `state forget` are in `state-entries.ts`.
 */
export const registerState: RegisterCommand = (program: Command) => {
  const state = program.command('state').description('Maintain the state store');
  registerStateEntries(state);
  state
    .command('unlock')
    .description('Show who holds the run lease; with the holder id, break it')
    .argument('[id]', 'the holder id shown by a "locked" error or by `platctl state unlock`')
    .option('--state <path|url>', STATE_HELP)
    .action(async (id: string | undefined, flags: { state?: string }) => {
      const store = await openState(resolveStateTarget(flags.state), { clock: systemClock });
      try {
        const held = await store.leaseHolder();
        if (id === undefined) {
          process.stdout.write(
            held
              ? `Locked by ${describeHolder(held)}\nTo break it: platctl state unlock ${held.id}\n`
              : `Not locked: ${store.path}\n`,
          );
          return;
        }
        const broken = await store.unlock(id);
        if (!broken) {
          throw new PlatctlError(
            'locked',
            held
              ? `${id} does not hold the lease; it is held by ${describeHolder(held)}`
              : `${id} does not hold the lease; nobody does`,
          );
        }
        process.stdout.write(`Unlocked: the lease of ${describeHolder(broken)} was broken\n`);
      } finally {
        await store.close();
      }
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
      const from = resolveStateTarget(flags.from);
      if (!isPostgresUrl(from) && !existsSync(from)) {
        throw new PlatctlError('usage', `--from ${from}: no such state file`);
      }
      const to = resolveStateTarget(flags.to);
      if (flags.to === undefined && !isPostgresUrl(to)) {
        throw new PlatctlError('usage', 'no target: pass --to or set PLATCTL_STATE_URL');
      }
      if (to === from) throw new PlatctlError('usage', '--from and --to are the same store');
      const source = await openState(from);
      try {
        const target = await openState(to);
        try {
          const n = await copyState(source, target);
          process.stdout.write(
            `Copied ${n.inventory} managed resources, ${n.lastApplied} last-applied manifests, ` +
              `${n.pending} pending creates and ${n.outcomes} recorded outcomes ` +
              `from ${redactUrl(from)} to ${target.path}.\n`,
          );
        } finally {
          await target.close();
        }
      } finally {
        await source.close();
      }
    });
};
