import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStateStore } from '../../src/state/sqlite-store.js';
import { manifestDir, type World, world } from './harness.js';

let w: World;
beforeEach(async () => {
  w = await world();
});
afterEach(async () => {
  await w.close();
});

const workspace = (name: string) => `apiVersion: paas.envmgmt.io/v1
kind: Workspace
metadata:
  name: ${name}
  project: ml-research
  displayName: Kept outcomes
`;

describe('outcome history', () => {
  it('keeps the outcomes of the newest 100 runs: an apply that changed something prunes the oldest', async () => {
    const state = openStateStore(join(w.dir, 'state.db'), {
      clock: { now: () => 0, sleep: async () => {} },
    });
    for (let i = 0; i < 120; i++) {
      const run = `old-${String(i).padStart(3, '0')}`;
      await state.recordOutcome(run, 'Workspace/p/x#update', 'Workspace/p/x', {
        status: 'not-started',
      });
    }
    await state.close();
    const result = await w.run({
      mode: 'apply',
      paths: [manifestDir(w, 'one', { 'ws.yaml': workspace('kept') })],
    });
    expect(result.status).toBe('applied');
    const after = openStateStore(join(w.dir, 'state.db'));
    const runs = new Set((await after.outcomes()).map((o) => o.runId));
    await after.close();
    expect(runs.size).toBe(100);
    expect(runs.has(result.runId)).toBe(true);
    // the oldest (ties by run id: the lowest ids) went first
    expect(runs.has('old-020')).toBe(false);
    expect(runs.has('old-119')).toBe(true);
  });
});
