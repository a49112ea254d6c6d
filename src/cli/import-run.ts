import { existsSync } from 'node:fs';
import { systemClock } from '../core/clock.js';
import { PlatctlError } from '../core/errors.js';
import { printable } from '../core/terminal-text.js';
import { IMPORTABLE_KINDS, importPlatform, UNREADABLE_KINDS } from '../import/index.js';
import { checkKinds } from '../import/read.js';
import { createProviderRegistry } from '../providers/index.js';
import { isPostgresUrl, openState, resolveStateTarget } from '../state/index.js';
import { connectedClient, connection } from './engine-config.js';

/** import's flags, as commander parses them. */
export interface ImportFlags {
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
  dialect?: string;
  rps?: number;
  concurrency?: number;
}

/**
 * What `platctl import` does once its flags are parsed (I/O: reads the platform, writes the
 * manifests, reads or with `--adopt` writes the state store).
 */
export async function runImport(flags: ImportFlags): Promise<void> {
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
  const api = connectedClient(conn, flags);
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
}
