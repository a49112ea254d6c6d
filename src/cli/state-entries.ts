import { systemClock } from '../core/clock.js';
import { PlatctlError } from '../core/errors.js';
import { openState, processHolder, resolveStateTarget, type StateStore } from '../state/index.js';
import { confirmOnTerminal } from './confirm.js';

/** One row of `platctl state list`: what the state knows of a key. */
interface Entry {
  readonly key: string;
  /** `created` by this state (a prune candidate), `found` (never pruned), or only `pending`. */
  readonly owner: 'created' | 'found' | 'pending';
  readonly protected: boolean;
  readonly lastApplied: boolean;
}

/** Every key the store holds, from its inventory and its pending creates, sorted (I/O). */
async function entries(store: StateStore): Promise<Entry[]> {
  const applied = await store.lastApplied();
  const out = new Map<string, Entry>();
  for (const e of await store.inventory()) {
    out.set(e.key, {
      key: e.key,
      owner: e.createdByPlatctl ? 'created' : 'found',
      protected: e.protected,
      lastApplied: applied.has(e.key),
    });
  }
  for (const p of await store.pending()) {
    if (!out.has(p.key)) {
      out.set(p.key, { key: p.key, owner: 'pending', protected: false, lastApplied: false });
    }
  }
  return [...out.values()].sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

/** The rows as a table for people (pure). */
function table(rows: readonly Entry[]): string {
  const cells = [
    ['KEY', 'OWNER', 'PROTECTED', 'LAST-APPLIED'],
    ...rows.map((r) => [r.key, r.owner, r.protected ? 'yes' : 'no', r.lastApplied ? 'yes' : 'no']),
  ];
  const widths = [0, 1, 2].map((i) => Math.max(...cells.map((c) => c[i]!.length)));
  return `${cells.map((c) => c.map((v, i) => (i < 3 ? v.padEnd(widths[i]!) : v)).join('  ')).join('\n')}\n`;
}

/**
 * What `platctl state list` and `platctl state forget <key>` do (I/O, the state store): see what the state holds, and get out of
 * any corner by hand. Forgetting drops a key's inventory entry, last-applied manifest and pending
 * create, nothing else: the platform is not touched, platctl stops managing the object (it is
 * never pruned; declared again in git it is found, or created when absent). It asks first (`--yes`
 * for scripts) and refuses while another process holds the run lease.
 */
export async function listEntries(flags: { state?: string; output: string }): Promise<void> {
  const store = await openState(resolveStateTarget(flags.state), { clock: systemClock });
  try {
    const rows = await entries(store);
    process.stdout.write(
      flags.output === 'json'
        ? `${JSON.stringify(rows, null, 2)}\n`
        : rows.length === 0
          ? `Nothing managed: ${store.path}\n`
          : table(rows),
    );
  } finally {
    await store.close();
  }
}

/** `platctl state forget <key>` (see {@link listEntries}). */
export async function forgetEntry(
  key: string,
  flags: { state?: string; yes?: boolean },
): Promise<void> {
  const store = await openState(resolveStateTarget(flags.state), { clock: systemClock });
  try {
    await forget(store, key, flags.yes === true);
  } finally {
    await store.close();
  }
}

async function forget(store: StateStore, key: string, yes: boolean): Promise<void> {
  // the lease first: a run in progress could write the key back, and it is refused at once
  const lease = await store.acquire({ holder: processHolder('state-forget'), heartbeat: false });
  try {
    const entry = (await entries(store)).find((e) => e.key === key);
    if (!entry) {
      throw new PlatctlError(
        'usage',
        `${key} is not in the state ${store.path} (platctl state list)`,
      );
    }
    const what =
      entry.owner === 'created'
        ? 'it will never be pruned, and declared again in git it is found, not created'
        : 'declared again in git it is found, or created when absent';
    const question = `Forget ${key} (${entry.owner})? platctl stops managing it and leaves it on the platform untouched; ${what}. Only "yes" is accepted: `;
    if (
      !yes &&
      !(await confirmOnTerminal(question, 'Not a terminal: pass --yes to forget without asking.'))
    ) {
      throw new PlatctlError('usage', `${key} not forgotten`);
    }
    await store.batch([
      { type: 'removeInventory', key },
      { type: 'removeLastApplied', key },
      { type: 'clearPending', key },
    ]);
    process.stdout.write(
      `Forgot ${key}: platctl no longer manages it; the platform was not touched.\n`,
    );
  } finally {
    await lease.release();
  }
}
