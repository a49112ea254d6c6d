import { type Command, Option } from 'commander';
import { PlatctlError } from '../../core/errors.js';
import { connectionOptions, positive } from '../engine-options.js';
import { hiddenAlias, outputOption } from '../flags.js';
import type { UsageFlags } from '../usage-run.js';
import type { RegisterCommand } from './register.js';

/** An ISO 8601 UTC timestamp as the billing API takes it; anything else is a usage error. */
function isoFlag(name: string) {
  return (value: string) => {
    const t = Date.parse(value);
    if (!/^\d{4}-\d{2}-\d{2}(T[\d:.]+Z)?$/.test(value) || Number.isNaN(t)) {
      throw new PlatctlError(
        'usage',
        `${name} must be an ISO 8601 UTC date or time (2026-11-01 or 2026-11-01T00:00:00Z), got ${value}`,
      );
    }
    return new Date(t).toISOString();
  };
}

/**
 * `platctl usage`: compute usage from the billing endpoints, per instance (or per profile), with
 * GPU-hours and, with a price file, cost; as a text table (with a bar chart on a terminal), JSON
 * or CSV, and `--html FILE` for a self-contained page with a Chart.js chart.
 */
export const registerUsage: RegisterCommand = (program: Command) => {
  const cmd = program
    .command('usage')
    .description('Show compute usage, GPU-hours and cost from the billing metrics')
    .option('--project <name>', 'only instances of this project')
    .addOption(new Option('--instance <name>', 'only this instance').conflicts('computeProfile'))
    .option('--compute-profile <name>', 'only instances of this compute profile (SKU)')
    .option('--by-compute-profile', 'one row per compute profile instead of per instance')
    .option('--from <time>', 'start (ISO 8601 UTC; default 30 days before --to)', isoFlag('--from'))
    .option('--to <time>', "end (ISO 8601 UTC; default the platform's now)", isoFlag('--to'))
    .option('--prices <file>', 'price file: per compute profile, hourly price and GPUs')
    // `table` was usage's name for text
    .addOption(outputOption(['text', 'json', 'csv'], { table: 'text' }))
    .option('--html <file>', 'also write a self-contained HTML page with a chart')
    .option('--no-chart', 'no terminal chart under the table');
  connectionOptions(cmd).option(
    '--rps <n>',
    'requests per second to the platform',
    positive('--rps'),
  );
  // older spellings: --profile is the config file's profile here as everywhere
  hiddenAlias(cmd, '--config-profile <name>', 'profile');
  hiddenAlias(cmd, '--by-profile', 'byComputeProfile');
  cmd.action(async (flags: UsageFlags) => {
    // the client and the report are loaded when it runs, not for --help
    await (await import('../usage-run.js')).runUsage(flags);
  });
};
