import { readFileSync } from 'node:fs';
import type { Clock } from '../core/clock.js';
import { PlatctlError } from '../core/errors.js';
import type { ShardCoordinator, ShardCoordinatorOptions } from './pg/shard-coordinator.js';
import { isPostgresUrl, parsePostgresTarget, redactUrl } from './pg/target.js';
import { DEFAULT_STATE_PATH, openStateStore } from './sqlite-store.js';
import type { StateStore } from './types.js';

// The PostgreSQL modules and the `pg` driver are imported when a database is opened: a controller
// or CLI on a SQLite file never loads them (≈ 3 MB of heap, 15 MB of RSS).
const openPostgresStore = async (target: string, options: { clock?: Clock }) =>
  (await import('./pg/store.js')).openPostgresStore(target, options);

/** The coordinator of sharded replicas on the PostgreSQL state at `url` (I/O; loads the driver). */
export async function openShardCoordinator(
  url: string,
  options: ShardCoordinatorOptions,
): Promise<ShardCoordinator> {
  return (await import('./pg/shards.js')).openShardCoordinator(url, options);
}

/**
 * Opens the state store `target` names (I/O): a `postgres://` URL opens the PostgreSQL store
 * (migrating its schema), anything else is a SQLite file path (`:memory:` for tests).
 */
export async function openState(
  target: string,
  options: { clock?: Clock } = {},
): Promise<StateStore> {
  return isPostgresUrl(target)
    ? openPostgresStore(target, options)
    : openStateStore(target, options);
}

/**
 * Like {@link openState}, but returns at once (for callers that cannot wait): a SQLite file is
 * opened now; a database is connected on the first call, and a failure to connect rejects that
 * call (and every later one) with the same classified error.
 */
export function openStateLazily(target: string, options: { clock?: Clock } = {}): StateStore {
  if (!isPostgresUrl(target)) return openStateStore(target, options);
  let opened: Promise<StateStore> | undefined;
  const store = () => {
    opened ??= openPostgresStore(target, options);
    return opened;
  };
  return {
    path: parsePostgresTarget(target).display,
    inventory: async () => (await store()).inventory(),
    putInventory: async (e) => (await store()).putInventory(e),
    removeInventory: async (k) => (await store()).removeInventory(k),
    lastApplied: async () => (await store()).lastApplied(),
    putLastApplied: async (k, m) => (await store()).putLastApplied(k, m),
    removeLastApplied: async (k) => (await store()).removeLastApplied(k),
    pending: async () => (await store()).pending(),
    beginPending: async (op) => (await store()).beginPending(op),
    clearPending: async (k) => (await store()).clearPending(k),
    recordOutcome: async (r, a, k, o) => (await store()).recordOutcome(r, a, k, o),
    batch: async (w) => (await store()).batch(w),
    outcomes: async () => (await store()).outcomes(),
    pruneOutcomes: async (k) => (await store()).pruneOutcomes(k),
    acquire: async (o) => (await store()).acquire(o),
    leaseHolder: async () => (await store()).leaseHolder(),
    unlock: async (id) => (await store()).unlock(id),
    controllerStatus: async () => (await store()).controllerStatus(),
    putControllerStatus: async (d) => (await store()).putControllerStatus(d),
    controllerIntent: async () => (await store()).controllerIntent(),
    putControllerIntent: async (d) => (await store()).putControllerIntent(d),
    appendRun: async (r, d, k) => (await store()).appendRun(r, d, k),
    runs: async (l) => (await store()).runs(l),
    close: async () => {
      if (opened) await (await opened.catch(() => undefined))?.close();
    },
  };
}

/**
 * Where the state lives (reads `PLATCTL_STATE_URL_FILE` when set): the `--state` flag, then the
 * file named by `PLATCTL_STATE_URL_FILE`, then `PLATCTL_STATE_URL`, then the default SQLite file.
 * A password is accepted only from the environment or the file: in `--state` it would show in
 * the process list and shell history, so it is refused (the error shows the URL masked).
 */
export function resolveStateTarget(
  flag: string | undefined,
  env: Readonly<Record<string, string | undefined>> = process.env,
): string {
  if (flag !== undefined) {
    if (isPostgresUrl(flag) && hasPassword(flag)) {
      throw new PlatctlError(
        'usage',
        `--state ${redactUrl(flag)}: a password on the command line would show in the process ` +
          'list; put the URL in PLATCTL_STATE_URL or in a file named by PLATCTL_STATE_URL_FILE, ' +
          'or the password in PGPASSWORD',
      );
    }
    return flag;
  }
  const file = env.PLATCTL_STATE_URL_FILE;
  if (file) {
    try {
      return readFileSync(file, 'utf8').trim();
    } catch (err) {
      throw new PlatctlError(
        'config',
        `cannot read PLATCTL_STATE_URL_FILE ${file}: ${String(err)}`,
      );
    }
  }
  return env.PLATCTL_STATE_URL || DEFAULT_STATE_PATH;
}

function hasPassword(url: string): boolean {
  try {
    return new URL(url).password !== '';
  } catch {
    return /\/\/[^/@:]*:[^@/]*@/.test(url);
  }
}
