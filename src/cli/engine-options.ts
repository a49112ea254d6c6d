import { readFileSync } from 'node:fs';
import { type Command, Option } from 'commander';
import { PlatctlError } from '../core/errors.js';
import type { EngineConfig } from '../reconcile/default-ports.js';

/** Flags shared by `plan` and `apply`, as commander parses them. */
export interface EngineFlags {
  output: 'text' | 'markdown' | 'json';
  state?: string;
  baseUrl?: string;
  apiKeyFile?: string;
  rps?: number;
  concurrency?: number;
  var: string[];
  varFile: string[];
  prune?: boolean;
  maxDeletes?: number;
  forceDeletes?: boolean;
}

const positive = (name: string) => (value: string) => {
  const n = Number(value);
  if (!(n > 0)) throw new PlatctlError('usage', `${name} must be a positive number, got ${value}`);
  return n;
};
const collect = (value: string, prev: string[]) => [...prev, value];

/** Adds the flags every engine command takes. */
export function engineOptions(cmd: Command): Command {
  return cmd
    .argument('<paths...>', 'manifest files or directories')
    .addOption(
      new Option('-o, --output <format>', 'plan format')
        .choices(['text', 'markdown', 'json'])
        .default('text'),
    )
    .option('--state <path>', 'state store (default .platctl/state.db)')
    .option('--base-url <url>', 'platform URL (default $PLATCTL_BASE_URL)')
    .option('--api-key-file <path>', 'file holding the API key (default $PLATCTL_API_KEY)')
    .option('--rps <n>', 'requests per second to the platform', positive('--rps'))
    .option(
      '--concurrency <n>',
      'actions and requests in flight at once (default 4 actions, 8 requests)',
      positive('--concurrency'),
    )
    .option('--var <KEY=VALUE>', 'substitution variable (repeatable)', collect, [] as string[])
    .option(
      '--var-file <file>',
      'file of substitution variables (repeatable)',
      collect,
      [] as string[],
    )
    .option('--prune', 'delete resources platctl created that are no longer in git')
    .option(
      '--max-deletes <n>',
      'most prune deletions allowed (default 5)',
      positive('--max-deletes'),
    )
    .option('--force-deletes', 'allow more prune deletions than --max-deletes');
}

/** `KEY=VALUE` pairs to a map; a malformed one is a usage error. */
export function parseVars(pairs: readonly string[]): Record<string, string> {
  const out: Record<string, string> = {};
  for (const p of pairs) {
    const i = p.indexOf('=');
    if (i <= 0) throw new PlatctlError('usage', `--var expects KEY=VALUE, got ${p}`);
    out[p.slice(0, i)] = p.slice(i + 1);
  }
  return out;
}

/** Where the platform is and the key to it: flags first, then the environment. */
export function connection(
  flags: EngineFlags,
  env: NodeJS.ProcessEnv = process.env,
): Pick<EngineConfig, 'baseUrl' | 'apiKey'> {
  const baseUrl = flags.baseUrl ?? env.PLATCTL_BASE_URL;
  if (!baseUrl) {
    throw new PlatctlError('config', 'no platform URL: pass --base-url or set PLATCTL_BASE_URL');
  }
  const apiKey = flags.apiKeyFile
    ? readFileSync(flags.apiKeyFile, 'utf8').trim()
    : env.PLATCTL_API_KEY;
  if (!apiKey) {
    throw new PlatctlError('config', 'no API key: set PLATCTL_API_KEY or pass --api-key-file');
  }
  return { baseUrl, apiKey };
}

/** Colors only on a terminal and never with NO_COLOR. */
export function useColor(stream: NodeJS.WriteStream): boolean {
  return stream.isTTY === true && !process.env.NO_COLOR;
}
