import type { Command } from 'commander';
import type { DoctorFlags } from '../doctor-run.js';
import { connectionOptions } from '../engine-options.js';
import { outputOption } from '../flags.js';
import type { RegisterCommand } from './register.js';

/**
 * `platctl doctor`: first contact with a platform. Reads only (and one create no platform
 * accepts); prints a table with a fix per failed line and the dialect that fits; exit 1 when a
 * check fails. The checks are loaded when it runs, not for `--help`.
 */
export const registerDoctor: RegisterCommand = (program: Command) => {
  connectionOptions(
    program
      .command('doctor')
      .description(
        'Check a platform before the first plan: reachability, auth, reads, clock, rights',
      )
      .addOption(outputOption(['text', 'json'])),
  ).action(async (flags: DoctorFlags) => {
    await (await import('../doctor-run.js')).runDoctorCommand(flags);
  });
};
