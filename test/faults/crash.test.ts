import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openStateStore } from '../../src/state/index.js';
import { type World, world } from '../e2e/harness.js';
import { PLATCTL_JS } from '../helpers/platctl-bin.js';
import { applyUntilSettled, audit, type Figures, plantFound, table } from './invariants.js';

/**
 * kill -9 of a real `platctl apply` process at several moments, with creates held in flight by
 * the emulator (they land after the process died: saved, never answered), then applies from the
 * same state until settled: no duplicate, nothing lost, nothing of another's deleted, <= 3 runs.
 */
const bin = PLATCTL_JS;
const MOMENTS_MS = [200, 1200, 2500];
const figures: Figures[] = [];
afterAll(() => {
  console.log(`crash trials\n${table(figures)}`);
});

async function leaseHolderPid(state: string): Promise<number | undefined> {
  const store = openStateStore(state);
  try {
    return (await store.leaseHolder())?.pid;
  } finally {
    await store.close();
  }
}

/** Starts the real CLI applying the world's manifests, and kills it `afterMs` into its run. */
async function killedApply(w: World, afterMs: number): Promise<void> {
  const state = join(w.dir, 'state.db');
  const child = spawn(
    process.execPath,
    [bin, 'apply', w.manifests, '--state', state, '--auto-approve'],
    {
      env: {
        ...process.env,
        ...w.env,
        PLATCTL_BASE_URL: w.emulator.url,
        PLATCTL_API_KEY: w.apiKey,
        NO_COLOR: '1',
      },
      stdio: 'ignore',
    },
  );
  const exited = new Promise((r) => child.on('exit', r));
  for (let i = 0; i < 600 && (await leaseHolderPid(state)) !== child.pid; i++) {
    await new Promise((r) => setTimeout(r, 25));
  }
  await new Promise((r) => setTimeout(r, afterMs));
  child.kill('SIGKILL');
  await exited;
}

describe('kill -9 of an apply, then apply again', () => {
  for (const moment of MOMENTS_MS) {
    it(`killed ${moment} ms into its run`, async () => {
      const w = await world();
      try {
        await plantFound(w);
        // every create is held 1.5 s on the way in: a kill leaves some sent and unanswered
        await w.fault({
          path: CREATES_REGEX,
          method: 'POST',
          latencyMs: 1500,
        });
        await killedApply(w, moment);
        await w.clearFaults();
        await new Promise((r) => setTimeout(r, 1600)); // the held creates land now
        const runs = await applyUntilSettled(w);
        const f = await audit(w, `kill -9 at ${moment} ms, creates in flight`, runs);
        figures.push(f);
        expect(f).toMatchObject({ duplicates: 0, lost: 0, foreignDeletes: 0 });
        expect(f.runs).toBeLessThanOrEqual(3);
      } finally {
        await w.close();
      }
    }, 60_000);
  }
});

const CREATES_REGEX =
  '^/(auth/v1/users/|apis/[^/]+/v\\d/projects/[^/]+/(services|workspaces|clusters|workspaces/[^/]+/computeinstances))$';
