import { writeFile } from 'node:fs/promises';
import { type Command, Option } from 'commander';
import { systemClock } from '../../core/clock.js';
import { PlatctlError } from '../../core/errors.js';
import { createApiClient } from '../../providers/index.js';
import {
  createUsageReader,
  DEFAULT_USAGE_DAYS,
  usageWindow,
} from '../../providers/usage-reader.js';
import { renderHtml } from '../../usage/html.js';
import { loadPrices } from '../../usage/prices.js';
import { renderCsv, renderJson, renderTable, renderTerminalChart } from '../../usage/render.js';
import { usageReport } from '../../usage/report.js';
import { connection, connectionOptions, positive } from '../engine-options.js';
import { hiddenAlias, outputOption } from '../flags.js';
import type { RegisterCommand } from './register.js';

interface UsageFlags {
  dialect?: string;
  project?: string;
  instance?: string;
  computeProfile?: string;
  byComputeProfile?: boolean;
  from?: string;
  to?: string;
  prices?: string;
  output: 'text' | 'json' | 'csv';
  html?: string;
  chart: boolean;
  baseUrl?: string;
  apiKeyFile?: string;
  profile?: string;
  config?: string;
  rps?: number;
}

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
    if (flags.from && flags.to && flags.from > flags.to) {
      throw new PlatctlError('usage', `--from ${flags.from} is after --to ${flags.to}`);
    }
    const prices = flags.prices ? await loadPrices(flags.prices) : undefined;
    const conn = await connection(flags).catch((err: unknown) => {
      throw profileHint(err, flags.profile);
    });
    const api = createApiClient({
      baseUrl: conn.baseUrl,
      apiKey: conn.apiKey,
      clock: systemClock,
      ...(conn.groups ? { groups: conn.groups } : {}),
      ...(conn.paths ? { paths: conn.paths } : {}),
      dialect: conn.dialect,
      ...(flags.rps ? { rps: flags.rps } : {}),
    });
    const window = await usageWindow(api, {
      ...(flags.from ? { from: flags.from } : {}),
      ...(flags.to ? { to: flags.to } : {}),
    });
    if (window.defaulted && flags.output === 'text') {
      process.stderr.write(
        `usage from ${window.from} to ${window.to} (the last ${DEFAULT_USAGE_DAYS} days on the platform's clock; --from and --to choose)\n`,
      );
    }
    const items = await createUsageReader(api)({
      ...(flags.project ? { project: flags.project } : {}),
      from: window.from,
      to: window.to,
    });
    const report = usageReport(
      items,
      {
        ...(flags.instance ? { instance: flags.instance } : {}),
        ...(flags.computeProfile ? { profile: flags.computeProfile } : {}),
        ...(flags.byComputeProfile ? { byProfile: true } : {}),
      },
      prices,
      { from: window.from, to: window.to },
    );
    if (flags.html) await writeFile(flags.html, renderHtml(report), 'utf8');
    const out = process.stdout;
    if (flags.output === 'json') out.write(renderJson(report));
    else if (flags.output === 'csv') out.write(renderCsv(report));
    else {
      out.write(renderTable(report));
      if (flags.chart && out.isTTY) out.write(`\n${renderTerminalChart(report)}`);
    }
  });
};

/**
 * `usage --profile` once named a compute profile: when the config file has no such profile, the
 * error says where the compute profile went (the flag is never read both ways).
 */
function profileHint(err: unknown, profile: string | undefined): unknown {
  const missing =
    err instanceof PlatctlError && /^(cannot read config file|no profile )/.test(err.message);
  if (profile === undefined || !missing) return err;
  return new PlatctlError(
    'config',
    `${err.message}\n--profile names a profile of the config file; for a compute profile pass --compute-profile ${profile}`,
    { cause: err },
  );
}
