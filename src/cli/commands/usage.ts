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
import { connection, dialectOption, positive } from '../engine-options.js';
import type { RegisterCommand } from './register.js';

interface UsageFlags {
  dialect?: string;
  project?: string;
  instance?: string;
  profile?: string;
  byProfile?: boolean;
  from?: string;
  to?: string;
  prices?: string;
  output: 'table' | 'json' | 'csv';
  html?: string;
  chart: boolean;
  baseUrl?: string;
  apiKeyFile?: string;
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
 * GPU-hours and, with a price file, cost; as a table (with a bar chart on a terminal), JSON or
 * CSV, and `--html FILE` for a self-contained page with a Chart.js chart.
 */
export const registerUsage: RegisterCommand = (program: Command) => {
  const cmd = program
    .command('usage')
    .description('Show compute usage, GPU-hours and cost from the billing metrics')
    .option('--project <name>', 'only instances of this project')
    .addOption(new Option('--instance <name>', 'only this instance').conflicts('profile'))
    .option('--profile <name>', 'only this compute profile (SKU)')
    .option('--by-profile', 'one row per profile instead of per instance')
    .option('--from <time>', 'start (ISO 8601 UTC; default 30 days before --to)', isoFlag('--from'))
    .option('--to <time>', "end (ISO 8601 UTC; default the platform's now)", isoFlag('--to'))
    .option('--prices <file>', 'price file: per profile, hourly price and GPUs')
    .addOption(
      new Option('-o, --output <format>', 'output format')
        .choices(['table', 'json', 'csv'])
        .default('table'),
    )
    .option('--html <file>', 'also write a self-contained HTML page with a chart')
    .option('--no-chart', 'no terminal chart under the table');
  // --profile names a compute profile here, so the config profile is --config-profile
  cmd
    .option('--base-url <url>', 'platform URL (default $PLATCTL_BASE_URL)')
    .option('--api-key-file <path>', 'file holding the API key (default $PLATCTL_API_KEY)')
    .option(
      '--config-profile <name>',
      'profile of the config file (default $PLATCTL_PROFILE or default)',
    )
    .option('--config <path>', 'config file (default ~/.config/platctl/config.yaml)')
    .addOption(dialectOption())
    .option('--rps <n>', 'requests per second to the platform', positive('--rps'));
  cmd.action(async (flags: UsageFlags & { configProfile?: string }) => {
    if (flags.from && flags.to && flags.from > flags.to) {
      throw new PlatctlError('usage', `--from ${flags.from} is after --to ${flags.to}`);
    }
    const prices = flags.prices ? await loadPrices(flags.prices) : undefined;
    const conn = await connection({
      ...(flags.baseUrl ? { baseUrl: flags.baseUrl } : {}),
      ...(flags.apiKeyFile ? { apiKeyFile: flags.apiKeyFile } : {}),
      ...(flags.configProfile ? { profile: flags.configProfile } : {}),
      ...(flags.config ? { config: flags.config } : {}),
      ...(flags.dialect ? { dialect: flags.dialect } : {}),
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
    if (window.defaulted && flags.output === 'table') {
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
        ...(flags.profile ? { profile: flags.profile } : {}),
        ...(flags.byProfile ? { byProfile: true } : {}),
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
