import { type Command, Option } from 'commander';
import { DIALECT_NAMES, type DialectName, defaultDialect, isDialectName } from '../core/dialect.js';
import { PlatctlError } from '../core/errors.js';
import { outputOption, PROFILE_HELP, STATE_HELP, variableOptions } from './flags.js';

/** Flags shared by `plan` and `apply`, as commander parses them. */
export interface EngineFlags {
  output: 'text' | 'markdown' | 'json';
  state?: string;
  baseUrl?: string;
  apiKeyFile?: string;
  profile?: string;
  config?: string;
  dialect?: string;
  rps?: number;
  concurrency?: number;
  var: string[];
  varFile: string[];
  prune?: boolean;
  maxDeletes?: number;
  forceDeletes?: boolean;
  prices?: string;
  verbose?: boolean;
}

/** Parses a positive number flag named `name`; anything else is a usage error. */
export const positive = (name: string) => (value: string) => {
  const n = Number(value);
  if (!(n > 0)) throw new PlatctlError('usage', `${name} must be a positive number, got ${value}`);
  return n;
};

/** Adds the flags saying where the platform and its key are (every command that reads it). */
export function connectionOptions(cmd: Command): Command {
  return cmd
    .option('--base-url <url>', 'platform URL (default $PLATCTL_BASE_URL)')
    .option('--api-key-file <file>', 'file holding the API key (default $PLATCTL_API_KEY)')
    .option('--profile <name>', PROFILE_HELP)
    .option('--config <file>', 'config file (default ~/.config/platctl/config.yaml)')
    .addOption(dialectOption());
}

/** `--dialect`: how the platform's API differs from the spec's (docs/dialects.md). */
export function dialectOption(): Option {
  return new Option(
    '--dialect <name>',
    "API dialect of the platform: spec or rafay (default $PLATCTL_DIALECT, the profile's, else spec)",
  ).choices(DIALECT_NAMES);
}

/**
 * The dialect of a command without a config profile (the controller): `--dialect`, then
 * `PLATCTL_DIALECT`, else `spec`. An unknown name is a config error.
 */
export function dialectFrom(flag: string | undefined): DialectName {
  return flag !== undefined && isDialectName(flag) ? flag : defaultDialect();
}

/**
 * Adds the flags `plan` and `apply` share, each described as that command uses it: `plan`
 * lists no flag only `apply` acts on (`--auto-approve` and `--lock-timeout` are apply's own).
 */
export function engineOptions(cmd: Command, mode: 'plan' | 'apply'): Command {
  const plan = mode === 'plan';
  cmd
    .argument('<paths...>', 'manifest files or directories; - reads stdin')
    .addOption(outputOption(['text', 'markdown', 'json']))
    .option('--state <path|url>', STATE_HELP);
  connectionOptions(cmd)
    .option('--rps <n>', 'requests per second to the platform', positive('--rps'))
    .option(
      '--concurrency <n>',
      plan
        ? 'requests in flight at once (default 8)'
        : 'actions and requests in flight at once (default 4 actions, 8 requests)',
      positive('--concurrency'),
    );
  return variableOptions(cmd)
    .option(
      '--prune',
      plan
        ? 'plan the deletion of resources platctl created that are no longer in git'
        : 'delete resources platctl created that are no longer in git',
    )
    .option(
      '--max-deletes <n>',
      'more prune deletions than this is an error (default 5)',
      positive('--max-deletes'),
    )
    .option('--force-deletes', 'allow more prune deletions than --max-deletes')
    .option('--prices <file>', 'price file: GPUs and hourly price per compute profile')
    .option(
      '--verbose',
      plan
        ? 'progress: how many objects of each kind were read'
        : "progress: how many objects were read, and a line for every action's start and finish",
    );
}

/** Colors on a terminal, or wherever FORCE_COLOR (not `0`) asks for them; never with NO_COLOR. */
export function useColor(
  stream: NodeJS.WriteStream,
  env: Readonly<Record<string, string | undefined>> = process.env,
): boolean {
  if (env.NO_COLOR) return false;
  if (env.FORCE_COLOR !== undefined) return env.FORCE_COLOR !== '0';
  return stream.isTTY === true;
}
