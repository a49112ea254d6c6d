import { existsSync } from 'node:fs';
import { systemClock } from '../core/clock.js';
import { PlatctlError } from '../core/errors.js';
import { copyState } from '../state/copy.js';
import {
  describeHolder,
  isPostgresUrl,
  openState,
  redactUrl,
  resolveStateTarget,
} from '../state/index.js';

/** `state migrate`'s flags. */
export interface MigrateFlags {
  from: string;
  to?: string;
}

/** `platctl state unlock [id]` (I/O): who holds the run lease; with the holder's id, break it. */
export async function unlockState(
  id: string | undefined,
  flags: { state?: string },
): Promise<void> {
  const store = await openState(resolveStateTarget(flags.state), { clock: systemClock });
  try {
    const held = await store.leaseHolder();
    if (id === undefined) {
      process.stdout.write(
        held
          ? `Locked by ${describeHolder(held)}\nTo break it: platctl state unlock ${held.id}\n`
          : `Not locked: ${store.path}\n`,
      );
      return;
    }
    const broken = await store.unlock(id);
    if (!broken) {
      throw new PlatctlError(
        'locked',
        held
          ? `${id} does not hold the lease; it is held by ${describeHolder(held)}`
          : `${id} does not hold the lease; nobody does`,
      );
    }
    process.stdout.write(`Unlocked: the lease of ${describeHolder(broken)} was broken\n`);
  } finally {
    await store.close();
  }
}

/** `platctl state migrate` (I/O): copy a state store into an empty one. */
export async function migrateState(flags: MigrateFlags): Promise<void> {
  const from = resolveStateTarget(flags.from);
  if (!isPostgresUrl(from) && !existsSync(from)) {
    throw new PlatctlError('usage', `--from ${from}: no such state file`);
  }
  const to = resolveStateTarget(flags.to);
  if (flags.to === undefined && !isPostgresUrl(to)) {
    throw new PlatctlError('usage', 'no target: pass --to or set PLATCTL_STATE_URL');
  }
  if (to === from) throw new PlatctlError('usage', '--from and --to are the same store');
  const source = await openState(from);
  try {
    const target = await openState(to);
    try {
      const n = await copyState(source, target);
      process.stdout.write(
        `Copied ${n.inventory} managed resources, ${n.lastApplied} last-applied manifests, ` +
          `${n.pending} pending creates and ${n.outcomes} recorded outcomes ` +
          `from ${redactUrl(from)} to ${target.path}.\n`,
      );
    } finally {
      await target.close();
    }
  } finally {
    await source.close();
  }
}
