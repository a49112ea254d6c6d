import { type Command, Option } from 'commander';
import { DIALECT_NAMES, defaultDialect } from '../../core/dialect.js';
import type { EmulatorFlags } from '../emulator-run.js';

/** `platctl emulator`: runs the platform emulator until SIGINT/SIGTERM. Prints the URL, never the key. */
export function registerEmulator(program: Command): void {
  program
    .command('emulator')
    .description('Run the platform emulator (the whole API, in memory or in a SQLite file)')
    .option('--port <port>', 'port to listen on (0: any free port)', '8080')
    .option('--host <host>', 'address to listen on', '127.0.0.1')
    .option('--api-key <key>', 'key of the seeded org admin (prefer PLATCTL_EMULATOR_API_KEY)')
    .option('--admin', 'serve the /_emulator/ test controls')
    .option('--data <file>', 'keep state in this SQLite file')
    .option('--seed <file>', 'YAML seed replacing the built-in one')
    .option('--clock-speed <n>', 'emulated seconds per real second', '1')
    .option(
      '--transition-seconds <list>',
      'e.g. vpc-deploy=5,compute-provision=10 (defaults are realistic: an instance takes 5m00s)',
    )
    .option('--fast', 'lifecycles of a second or two, for local work (entries above still apply)')
    .addOption(
      new Option('--dialect <name>', 'API dialect to speak (default $PLATCTL_DIALECT, else spec)')
        .choices(DIALECT_NAMES)
        .default(defaultDialect()),
    )
    .option('--infra-group <group>', 'API group of clusters')
    .option('--paas-group <group>', 'API group of services, workspaces and compute')
    .option('--billing-group <group>', 'API group of billing metrics')
    .option('--page-cap <n>', 'answer at most n items a page, whatever limit asks (client tests)')
    .option('--ignore-offset', 'ignore offset on every list, as a stricter server might')
    .action(async (flags: EmulatorFlags) => {
      // the emulator is loaded when it runs, not for --help
      await (await import('../emulator-run.js')).runEmulator(flags);
    });
}
