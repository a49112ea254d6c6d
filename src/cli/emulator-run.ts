import { DIALECTS, type DialectName } from '../core/dialect.js';
import { PlatctlError } from '../core/errors.js';
import { listenError } from '../core/listen-error.js';
import { createLogger } from '../core/logger.js';
import type { TransitionName } from '../emulator/http/types.js';
import {
  DEFAULT_TRANSITION_SECONDS,
  FAST_TRANSITION_SECONDS,
  startEmulator,
} from '../emulator/index.js';
import { duration } from '../reconcile/render/text.js';

/** The emulator's flags, as commander parses them. */
export interface EmulatorFlags {
  dialect: DialectName;
  port: string;
  host: string;
  apiKey?: string;
  admin?: boolean;
  data?: string;
  seed?: string;
  clockSpeed?: string;
  transitionSeconds?: string;
  fast?: boolean;
  infraGroup?: string;
  paasGroup?: string;
  billingGroup?: string;
  pageCap?: string;
  ignoreOffset?: boolean;
}

/** Parses `vpc-deploy=5,compute-provision=10`; throws a usage error naming the bad entry. */
export function parseTransitions(text: string): Partial<Record<TransitionName, number>> {
  const out: Partial<Record<TransitionName, number>> = {};
  for (const pair of text.split(',').filter((p) => p.trim() !== '')) {
    const [name, value] = pair.split('=').map((s) => s.trim());
    const seconds = Number(value);
    if (!name || !(name in DEFAULT_TRANSITION_SECONDS) || value === '' || !(seconds >= 0)) {
      const names = Object.keys(DEFAULT_TRANSITION_SECONDS).join(', ');
      throw new PlatctlError('usage', `bad --transition-seconds entry "${pair}" (names: ${names})`);
    }
    out[name as TransitionName] = seconds;
  }
  return out;
}

/**
 * What `platctl emulator` does once its flags are parsed (I/O): starts the emulator, prints its
 * URL (never the key) and lifecycles, and serves until SIGINT/SIGTERM.
 */
export async function runEmulator(flags: EmulatorFlags): Promise<void> {
  const apiKey = flags.apiKey ?? process.env.PLATCTL_EMULATOR_API_KEY;
  if (!apiKey)
    throw new PlatctlError(
      'usage',
      'an API key is required: set PLATCTL_EMULATOR_API_KEY or --api-key',
    );
  if (flags.apiKey) {
    process.stderr.write(
      'note: --api-key is visible in process lists; prefer PLATCTL_EMULATOR_API_KEY\n',
    );
  }
  const port = Number(flags.port);
  const clockSpeed = Number(flags.clockSpeed ?? '1');
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new PlatctlError('usage', `bad --port ${flags.port}`);
  if (!(clockSpeed > 0)) throw new PlatctlError('usage', `bad --clock-speed ${flags.clockSpeed}`);
  const transitions = {
    ...(flags.fast ? FAST_TRANSITION_SECONDS : DEFAULT_TRANSITION_SECONDS),
    ...parseTransitions(flags.transitionSeconds ?? ''),
  };
  const pageCap = flags.pageCap === undefined ? undefined : Number(flags.pageCap);
  if (pageCap !== undefined && !(Number.isInteger(pageCap) && pageCap > 0))
    throw new PlatctlError('usage', `bad --page-cap ${flags.pageCap} (a whole number above 0)`);
  const emu = await startEmulator({
    apiKey,
    port,
    host: flags.host,
    admin: flags.admin === true,
    clockSpeed,
    logger: createLogger({ base: { component: 'emulator' } }),
    ...(flags.data ? { dataFile: flags.data } : {}),
    ...(flags.seed ? { seedFile: flags.seed } : {}),
    transitionSeconds: transitions,
    dialect: flags.dialect,
    groups: { infra: flags.infraGroup, paas: flags.paasGroup, billing: flags.billingGroup },
    ...(pageCap !== undefined || flags.ignoreOffset
      ? {
          paging: {
            ...(pageCap !== undefined ? { pageCap } : {}),
            ...(flags.ignoreOffset ? { ignoreOffset: true } : {}),
          },
        }
      : {}),
  }).catch((err: unknown) => {
    throw listenError(err, flags.host, port, '--port');
  });
  process.stdout.write(`platform emulator listening on ${emu.url} (docs: ${emu.url}/docs)\n`);
  if (flags.dialect !== 'spec') {
    process.stdout.write(`dialect ${flags.dialect}: ${DIALECTS[flags.dialect].summary}\n`);
  }
  process.stdout.write(`${lifecycles(transitions, flags.fast === true, clockSpeed)}\n`);
  await new Promise<void>((resolve) => {
    const stop = () => {
      process.off('SIGINT', stop);
      process.off('SIGTERM', stop);
      emu.close().then(resolve, resolve);
    };
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
  });
  process.stdout.write('platform emulator stopped\n');
}

/** `lifecycles (realistic): vpc-deploy 30s, compute-provision 5m00s, ...` and how to change them. */
function lifecycles(
  seconds: Readonly<Record<TransitionName, number>>,
  fast: boolean,
  clockSpeed: number,
): string {
  const list = Object.entries(seconds)
    .map(([name, s]) => `${name} ${duration((s * 1000) / clockSpeed)}`)
    .join(', ');
  const hint = fast ? '' : '; --fast for local work';
  return `lifecycles (${fast ? '--fast' : 'realistic'}): ${list}${hint}`;
}
