import { randomBytes } from 'node:crypto';
import { cpSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { emulatorControl } from '../../src/emulator/admin/client.js';
import { type RunningEmulator, startEmulator } from '../../src/emulator/index.js';
import { createRunPorts } from '../../src/reconcile/default-ports.js';
import type { RunEvent } from '../../src/reconcile/events.js';
import { reconcile } from '../../src/reconcile/run.js';
import type { RunOptions, RunResult } from '../../src/reconcile/run-types.js';

export const EXAMPLES = fileURLToPath(new URL('../../examples/manifests/', import.meta.url));

/** Short lifecycles: every wait is a fraction of a second of real time. */
export const FAST = {
  'vpc-deploy': 0.2,
  'compute-provision': 0.3,
  'compute-delete': 0.2,
  'cluster-provision': 0.3,
  'cluster-delete': 0.2,
};

/**
 * No lifecycle at all: a resource is ready (or gone) at its first read, so a wait is one look.
 * For suites that run the real CLI, whose waits poll every 2 s (FAST still costs a poll per
 * wait: 6 s of an examples apply), where no test is about a resource in transition.
 */
export const INSTANT: typeof FAST = {
  'vpc-deploy': 0,
  'compute-provision': 0,
  'compute-delete': 0,
  'cluster-provision': 0,
  'cluster-delete': 0,
};

export interface JournalEntry {
  seq: number;
  method: string;
  path: string;
  status: number;
}

/**
 * One test's world: an emulator on an ephemeral loopback port with a random key, a copy of the
 * examples in a temp directory, and a private state store. `run()` drives the real engine over
 * real HTTP; `operations` records what the API client sent, in order. `lifecycles`: the
 * emulator's transitions ({@link FAST}; {@link INSTANT} where the real CLI applies).
 */
export async function world(lifecycles: typeof FAST = FAST) {
  const apiKey = randomBytes(16).toString('hex');
  const password = `Pw-${randomBytes(8).toString('hex')}`;
  const emulator: RunningEmulator = await startEmulator({
    port: 0,
    apiKey,
    admin: true,
    transitionSeconds: lifecycles,
  });
  const dir = mkdtempSync(join(tmpdir(), 'platctl-e2e-'));
  const manifests = join(dir, 'manifests');
  cpSync(EXAMPLES, manifests, { recursive: true });
  const operations: string[] = [];
  const events: RunEvent[] = [];
  const control = async (method: string, path: string, body?: unknown) => {
    const res = await emulatorControl(emulator.url, method, path, body);
    const text = await res.text();
    return (text ? JSON.parse(text) : {}) as Record<string, unknown>;
  };
  return {
    apiKey,
    password,
    emulator,
    dir,
    manifests,
    operations,
    events,
    env: { PLATCTL_DEMO_PASSWORD: password },
    /** One run; `statePath` picks another state store than the world's own. */
    async run(
      options: Partial<RunOptions> = {},
      where: { statePath?: string } = {},
    ): Promise<RunResult> {
      const ports = createRunPorts({
        baseUrl: emulator.url,
        apiKey,
        statePath: where.statePath ?? join(dir, 'state.db'),
        env: { PLATCTL_DEMO_PASSWORD: password },
        wait: { pollMs: 25, timeoutMs: 20_000 },
        client: { baseDelayMs: 5, maxDelayMs: 50, maxAttempts: 8 },
        onRequest: (e) => operations.push(`${e.status} ${e.operation}`),
        events: (e) => events.push(e),
      });
      try {
        return await reconcile({ paths: [manifests], ...options }, ports);
      } finally {
        await ports.close();
      }
    },
    async journal(since = 0): Promise<JournalEntry[]> {
      return (await control('GET', `/_emulator/journal?since=${since}`)).entries as JournalEntry[];
    },
    async last(): Promise<number> {
      return (await control('GET', '/_emulator/journal')).last as number;
    },
    fault: (spec: Record<string, unknown>) => control('POST', '/_emulator/faults', spec),
    clearFaults: () => control('DELETE', '/_emulator/faults'),
    async close() {
      await emulator.close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
}

export type World = Awaited<ReturnType<typeof world>>;

/**
 * Applies until an apply finds nothing to do, at most `maxRuns` times (the first apply defers
 * controller updates on a new cluster; a run that met a permanent-looking error is retried by the
 * next, as the controller does).
 */
export async function converge(
  w: World,
  options: Partial<RunOptions> = {},
  maxRuns = 3,
): Promise<RunResult[]> {
  const results: RunResult[] = [];
  for (let i = 0; i < maxRuns; i++) {
    let r: RunResult;
    try {
      r = await w.run({ mode: 'apply', ...options });
    } catch (err) {
      // a whole-run failure (observation exhausted its retries): the next run starts over
      if (i === maxRuns - 1) throw err;
      continue;
    }
    results.push(r);
    if (r.status === 'in-sync' || r.status === 'invalid' || r.status === 'blocked') break;
  }
  return results;
}

export const writes = (entries: JournalEntry[]) => entries.filter((e) => e.method !== 'GET');

/** A manifests directory `name` of the world holding exactly `files` (name → YAML); its path. */
export function manifestDir(w: World, name: string, files: Record<string, string>): string {
  const dir = join(w.dir, name);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir);
  for (const [file, text] of Object.entries(files)) writeFileSync(join(dir, file), text);
  return dir;
}
