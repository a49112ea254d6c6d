import type { Command } from 'commander';
import { systemClock } from '../../core/clock.js';
import { PlatctlError } from '../../core/errors.js';
import { describeHolder, openState, resolveStateTarget } from '../../state/index.js';
import type { RegisterCommand } from './index.js';

/**
 * `platctl state ...`: maintenance of the state store. `state unlock [id]` shows who holds the
 * run lease and, given that holder's id, breaks it (Terraform's force-unlock): for a holder that
 * died where platctl cannot see it (another host, a pid reused). A holder that still runs loses
 * the lease at its next renewal and stops writing.
 */
export const registerState: RegisterCommand = (program: Command) => {
  const state = program.command('state').description('Maintain the state store');
  state
    .command('unlock')
    .description('Show who holds the run lease; with the holder id, break it')
    .argument('[id]', 'the holder id shown by a "locked" error or by `platctl state unlock`')
    .option('--state <path>', 'state store: SQLite file or postgres:// URL')
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
};
