import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { RunResult } from '../../src/reconcile/run-types.js';
import { converge, type World, world } from '../e2e/harness.js';

/**
 * Pruning a user with its roles, and an instance with its workspace, while the emulator fails a
 * quarter of the writes and drops connections (issue 22, item 1): each removal runs after what
 * depends on it, a removal that finds its object gone is done, so the prune settles within three
 * runs, leaves nothing behind, and no run fails on a 404.
 */
const API = '^/(apis|auth|v2)/.*';
const FAULTS = [
  { path: API, method: 'POST', status: 500, rate: 0.25 },
  { path: API, method: 'DELETE', status: 500, rate: 0.25 },
  { path: API, method: 'POST', drop: true, count: 3 },
];

/** Cuts the documents of `file` that contain `marker` (a multi-document YAML file). */
function drop(w: World, file: string, marker: string): void {
  const path = join(w.manifests, file);
  const docs = readFileSync(path, 'utf8').split(/^---$/m);
  writeFileSync(path, docs.filter((d) => !d.includes(marker)).join('---'));
}

const failures = (r: RunResult) =>
  Object.entries(r.outcomes ?? {}).filter(([, o]) => o.status === 'failed');

describe('prune order under faults', () => {
  it('removes roles before their user and an instance before its workspace, and settles', async () => {
    const w = await world();
    try {
      await converge(w);
      // alice and both her roles; the experiments workspace and its dev box
      drop(w, '00-users.yaml', 'name: alice@acme.example');
      drop(w, '01-project-assignments.yaml', 'user: alice@acme.example');
      drop(w, '20-ml-research.yaml', 'experiments');
      for (const f of FAULTS) await w.fault(f);
      const runs: RunResult[] = [];
      for (let i = 0; i < 3; i++) {
        const r = await w.run({ mode: 'apply', prune: true });
        runs.push(r);
        if (r.status === 'applied' || r.status === 'in-sync') {
          if (failures(r).length === 0) break;
        }
      }
      await w.clearFaults();
      const last = runs.at(-1)!;
      expect(failures(last)).toEqual([]);
      expect(runs.length).toBeLessThanOrEqual(3);
      // no removal ever failed for finding its object gone
      for (const r of runs) {
        for (const [, o] of failures(r))
          expect(o.status === 'failed' && o.error).not.toMatch(/404|does not exist/);
      }
      // the order held in every run that planned them
      for (const r of runs) {
        const ids = new Map(r.plan!.actions.map((a) => [a.id, a]));
        const userDelete = ids.get('User/alice@acme.example#delete');
        const unassigns = [
          'ProjectAssignment/ml-research/alice-ml-research#unassign',
          'ProjectAssignment/platform/alice-platform#unassign',
        ].filter((id) => ids.has(id)); // one taken back by an earlier run is not planned again
        if (userDelete) expect(userDelete.dependsOn).toEqual(expect.arrayContaining(unassigns));
        const wsDelete = ids.get('Workspace/ml-research/experiments#delete');
        if (wsDelete) {
          expect(wsDelete.dependsOn).toContain(
            'ComputeInstance/ml-research/experiments/l40s-dev#delete',
          );
        }
      }
      // nothing is left behind and a fault-free plan is clean
      const users = w.emulator.store.list<{ username: string }>('users');
      expect(users.map((u) => u.username)).not.toContain('alice@acme.example');
      const after = await w.run({ mode: 'plan', prune: true });
      expect(after.changes).toBe(false);
      expect(after.plan!.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    } finally {
      await w.close();
    }
  }, 180_000);
});
