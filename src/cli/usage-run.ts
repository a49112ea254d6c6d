import { writeFile } from 'node:fs/promises';
import { PlatctlError } from '../core/errors.js';
import { createUsageReader, DEFAULT_USAGE_DAYS, usageWindow } from '../providers/usage-reader.js';
import { renderHtml } from '../usage/html.js';
import { loadPrices } from '../usage/prices.js';
import { renderCsv, renderJson, renderTable, renderTerminalChart } from '../usage/render.js';
import { usageReport } from '../usage/report.js';
import { connectedClient, connection } from './engine-config.js';

/** usage's flags, as commander parses them. */
export interface UsageFlags {
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

/**
 * What `platctl usage` does once its flags are parsed (I/O: the billing endpoints, stdout, the
 * `--html` file): the report per instance or compute profile, in the chosen format.
 */
export async function runUsage(flags: UsageFlags): Promise<void> {
  if (flags.from && flags.to && flags.from > flags.to) {
    throw new PlatctlError('usage', `--from ${flags.from} is after --to ${flags.to}`);
  }
  const prices = flags.prices ? await loadPrices(flags.prices) : undefined;
  const conn = await connection(flags).catch((err: unknown) => {
    throw profileHint(err, flags.profile);
  });
  const api = connectedClient(conn, flags);
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
}

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
