import { existsSync } from 'node:fs';
import type { Command } from 'commander';
import { systemClock } from '../../core/clock.js';
import { PlatctlError } from '../../core/errors.js';
import { printable } from '../../core/terminal-text.js';
import { IMPORTABLE_KINDS, importPlatform, UNREADABLE_KINDS } from '../../import/index.js';
import { checkKinds } from '../../import/read.js';
import { createApiClient, createProviderRegistry } from '../../providers/index.js';
import { isPostgresUrl, openState, resolveStateTarget } from '../../state/index.js';
import { connection, connectionOptions, positive } from '../engine-options.js';
import type { RegisterCommand } from './register.js';

interface ImportFlags {
  project: string[];
  kind: string[];
  out: string;
  adopt?: boolean;
  force?: boolean;
  state?: string;
  baseUrl?: string;
  apiKeyFile?: string;
  profile?: string;
  config?: string;
  rps?: number;
  concurrency?: number;
}

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
      `import this kind (repeatable; default ${IMPORTABLE_KINDS.join(', ')})`,
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
    const kinds = checkKinds(flags.kind);
    const target = resolveStateTarget(flags.state);
    // the state is read (for what the API cannot) when there is one, written only with --adopt
    const state =
      flags.adopt || isPostgresUrl(target) || existsSync(target)
        ? await openState(target, { clock: systemClock })
        : undefined;
    const readless = kinds.filter((k) => UNREADABLE_KINDS.includes(k));
    if (readless.length > 0 && !state) {
      throw new PlatctlError(
        'usage',
        `--kind ${readless.join(', ')}: the API has no read of it, and there is no state store at ${target} to take it from (importable from the API: ${IMPORTABLE_KINDS.join(', ')})`,
      );
    }
    const conn = await connection(flags);
    const api = createApiClient({
      baseUrl: conn.baseUrl,
      apiKey: conn.apiKey,
      clock: systemClock,
      ...(conn.groups ? { groups: conn.groups } : {}),
      ...(conn.paths ? { paths: conn.paths } : {}),
      dialect: conn.dialect,
      ...(flags.rps ? { rps: flags.rps } : {}),
      ...(flags.concurrency ? { concurrency: flags.concurrency } : {}),
    });
    try {
      const result = await importPlatform(
        {
          scope: {
            ...(flags.project.length > 0 ? { projects: flags.project } : {}),
            ...(kinds.length > 0 ? { kinds } : {}),
          },
          outDir: flags.out,
          ...(flags.adopt ? { adopt: true } : {}),
          ...(flags.force ? { overwrite: true } : {}),
        },
        {
          api,
          providers: createProviderRegistry(),
          clock: systemClock,
          ...(state ? { state } : {}),
        },
      );
      const total = Object.values(result.counts).reduce((a, b) => a + b, 0);
      const perKind = Object.entries(result.counts)
        .map(([k, n]) => `${n} ${k}`)
        .join(', ');
      // file names, notes and the directory quote the platform and the command line
      const say = (text: string) => process.stdout.write(`${printable(text)}\n`);
      say(
        `Imported ${total} objects (${perKind || 'none'}) from ${result.projects.length} projects into ${flags.out}: ${result.files.join(', ') || 'no files'}`,
      );
      process.stdout.write(
        result.adopted
          ? 'Adopted: recorded as managed in the state; apply --prune may delete what leaves git.\n'
          : 'Found, not adopted: platctl will update these but never prune them (import --adopt to manage them).\n',
      );
      for (const note of result.notes) say(`note: ${note}`);
      process.stdout.write(
        state
          ? `Users' groups and ${UNREADABLE_KINDS.join(', ')} are as platctl last applied them (state ${state.path}): the API cannot read them.\n`
          : `Not imported (the API cannot read them, and there is no state store): users' groups, ${UNREADABLE_KINDS.join(', ')}.\n`,
      );
    } finally {
      await state?.close();
    }
  });
};
