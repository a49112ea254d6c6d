import pg from 'pg';
import { emulatorControl } from '../src/emulator/admin/client.js';
import type { LineProcess } from '../test/helpers/process.js';

// What bench/shard.ts does to a running fleet and reads from it beside its convergence: the
// request peaks in the emulator's journal, a takeover after kill -9, a change's convergence
// against the budget, and its state's schema dropped after.

/** The shared budget's spacing (`PACE_MARGIN` in src/controller/leadership/shards/budget.ts). */
export const PACE_MARGIN = 1.1;

export interface Entry {
  readonly seq: number;
  readonly time: string;
  readonly method: string;
  readonly path: string;
  readonly status: number;
}

/** The most entries in one whole second, and in any sliding second, of the journal's clock. */
export function peaks(entries: readonly Entry[]): { whole: number; sliding: number } {
  const times = entries.map((e) => Date.parse(e.time)).sort((a, b) => a - b);
  const perSecond = new Map<number, number>();
  for (const t of times)
    perSecond.set(Math.floor(t / 1000), (perSecond.get(Math.floor(t / 1000)) ?? 0) + 1);
  let sliding = 0;
  for (let i = 0, j = 0; i < times.length; i++) {
    while (times[i]! - times[j]! >= 1000) j++;
    sliding = Math.max(sliding, i - j + 1);
  }
  return { whole: Math.max(0, ...perSecond.values()), sliding };
}

/**
 * Kills (-9) the replica holding the most projects and measures the time until the others hold
 * all of them, from their `/status`.
 */
export async function takeover(procs: readonly LineProcess[]): Promise<number> {
  const urls = await Promise.all(
    procs.map(async (p) => {
      const { listen } = JSON.parse(await p.waitFor(/"event":"started"/)) as { listen: string };
      return `http://${listen}/status`;
    }),
  );
  const held = async (url: string) =>
    ((await (await fetch(url)).json()) as { shards?: { held: string[] } }).shards?.held ?? [];
  const shares = await Promise.all(urls.map(held));
  const most = shares.findIndex((h) => h.length === Math.max(...shares.map((x) => x.length)));
  const orphaned = shares[most]!;
  const killedAt = performance.now();
  procs[most]!.child.kill('SIGKILL');
  const survivors = urls.filter((_, i) => i !== most);
  for (;;) {
    const now = new Set((await Promise.all(survivors.map(held))).flat());
    if (orphaned.every((s) => now.has(s))) return performance.now() - killedAt;
    if (performance.now() - killedAt > 60_000) throw new Error('no takeover within 60 s');
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** The fleet a change is made to: its projects, its `--rps`, and the edit of its manifests. */
export interface ChangeTarget {
  readonly projects: number;
  readonly rps: number;
  /** Writes the manifests with `description` on each project's first workspace. */
  edit(description: string): void;
}

/** How long the emulator's journal must stay still before the edit: no run still in flight. */
const QUIET_MS = 3_000;

/**
 * The journal's last sequence number once the fleet is idle (I/O): a replica that took shards
 * late runs again after every workspace exists, and that run's lists, counted after the edit,
 * would both inflate the requests and start the clock early. Waits for {@link QUIET_MS} without
 * a request (at most two minutes) and says how many came after convergence.
 */
async function quietAfter(url: string, converged: number): Promise<number> {
  let last = converged;
  let stillSince = performance.now();
  const started = stillSince;
  while (performance.now() - stillSince < QUIET_MS && performance.now() - started < 120_000) {
    await new Promise((r) => setTimeout(r, 250));
    const res = await emulatorControl(url, 'GET', `/_emulator/journal?since=${last}`);
    const entries = ((await res.json()) as { entries: Entry[] }).entries;
    if (entries.length > 0) {
      last = Math.max(last, ...entries.map((e) => e.seq));
      stillSince = performance.now();
    }
  }
  console.error(`idle before the edit: ${last - converged} requests after convergence`);
  return last;
}

/**
 * Edits one workspace of every project in the watched directory and waits until the emulator has
 * answered that many workspace updates: the seconds from the edit, the requests sent after it,
 * and the budget's floor for them.
 */
export async function changeEveryProject(
  url: string,
  converged: readonly Entry[],
  target: ChangeTarget,
) {
  const after = await quietAfter(url, Math.max(0, ...converged.map((e) => e.seq)));
  const editedAt = performance.now();
  target.edit(`changed ${new Date().toISOString()}`);
  for (;;) {
    const res = await emulatorControl(url, 'GET', `/_emulator/journal?since=${after}`);
    const entries = ((await res.json()) as { entries: Entry[] }).entries;
    const updated = entries.filter(
      (e) => e.method === 'POST' && /\/workspaces$/.test(e.path) && e.status < 300,
    );
    if (updated.length >= target.projects) {
      const seconds = (performance.now() - editedAt) / 1000;
      const times = entries.map((e) => Date.parse(e.time));
      const floor = (entries.length * PACE_MARGIN) / target.rps;
      return {
        seconds,
        requests: entries.length,
        lists: entries.filter((e) => e.method === 'GET').length,
        updates: updated.length,
        active: (Math.max(...times) - Math.min(...times)) / 1000,
        floor,
        ratio: seconds / floor,
      };
    }
    if (performance.now() - editedAt > 600_000) {
      throw new Error(`only ${updated.length} of ${target.projects} updated`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
}

/** Drops `schema`, again while the killed replicas' sessions are still ending. */
export async function dropSchema(databaseUrl: string, schema: string) {
  const admin = new pg.Client({ connectionString: databaseUrl });
  await admin.connect();
  try {
    for (let attempt = 1; ; attempt++) {
      try {
        await admin.query(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        return;
      } catch (err) {
        if (attempt >= 10) throw err;
        await new Promise((r) => setTimeout(r, 500));
      }
    }
  } finally {
    await admin.end();
  }
}
