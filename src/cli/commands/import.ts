import type { Command } from 'commander';
import { connectionOptions, positive } from '../engine-options.js';
import type { ImportFlags } from '../import-run.js';
import type { RegisterCommand } from './register.js';

const collect = (value: string, prev: string[]) => [...prev, value];

/**
 * `platctl import --out DIR`: writes the live platform as manifests (only reads the platform).
 * With `--adopt`, the imported objects are recorded in the state as managed.
 */
export const registerImport: RegisterCommand = (program: Command) => {
  const cmd = program
    .command('import')
    .description('Write the live platform as manifests (reads the platform only)')
    .option(
      '--project <name>',
      'import this project (repeatable; default every project)',
      collect,
      [],
    )
    .option(
      '--kind <kind>',
      // the importable kinds, written out: --help loads no importer (a test keeps them equal)
      'import this kind (repeatable; default User, Service, Workspace, ComputeInstance, Cluster)',
      collect,
      [],
    )
    .requiredOption('--out <dir>', 'directory to write the manifests to')
    .option('--adopt', 'record the imported objects as managed, so --prune may delete them')
    .option('--force', 'write into a directory that already holds manifests')
    .option(
      '--state <path|url>',
      'state store: read for what the API cannot, written with --adopt (default $PLATCTL_STATE_URL, else .platctl/state.db)',
    );
  connectionOptions(cmd)
    .option('--rps <n>', 'requests per second to the platform', positive('--rps'))
    .option(
      '--concurrency <n>',
      'requests in flight at once (default 8)',
      positive('--concurrency'),
    );
  cmd.action(async (flags: ImportFlags) => {
    // the client, the providers and the state store are loaded when it runs, not for --help
    await (await import('../import-run.js')).runImport(flags);
  });
};
