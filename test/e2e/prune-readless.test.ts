import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { converge, type World, world, writes } from './harness.js';

let w: World;
beforeEach(async () => {
  w = await world();
});
afterEach(async () => {
  await w.close();
});

/** Cuts a multi-document file at the first line that starts with `marker`. */
function cutAt(file: string, marker: string) {
  const text = readFileSync(file, 'utf8');
  const at = text.indexOf(marker);
  expect(at).toBeGreaterThan(0);
  writeFileSync(file, text.slice(0, text.lastIndexOf('---', at)));
}

const notInGit = (r: Awaited<ReturnType<World['run']>>) =>
  r.plan!.diagnostics.filter((d) => d.message.startsWith('no longer in git')).map((d) => d.key);

// The kinds whose removal is not a `delete`: an assignment is taken back with an unassign; a
// blueprint publish, controller versions and a version's enablement have nothing to undo.
describe('pruning the kinds the API cannot read', () => {
  it('leaves the inventory once pruned: later plans are clean and nothing is sent twice', async () => {
    await converge(w);
    cutAt(
      join(w.manifests, '01-project-assignments.yaml'),
      'kind: ProjectAssignment\nmetadata:\n  name: ci-bot',
    );
    cutAt(join(w.manifests, '30-gke.yaml'), '# Make v2.0.0');
    const removed = [
      'BlueprintPublish/platform/gke-ml-ml-stack',
      'BlueprintVersion/platform/ml-stack-v2',
      'ClusterControllers/platform/gke-ml',
      'ProjectAssignment/ml-research/ci-bot-ml-research',
    ];
    expect(notInGit(await w.run({ mode: 'plan' })).sort()).toEqual(removed);

    const before = await w.last();
    const pruned = await w.run({ mode: 'apply', prune: true });
    expect(pruned.status).toBe('applied');
    expect(writes(await w.journal(before)).map((e) => `${e.method} ${e.path}`)).toEqual([
      expect.stringMatching(/^POST \/auth\/v1\/users\/[^/]+\/unassignfromproject\/$/),
    ]);

    const after = await w.last();
    const again = await w.run({ mode: 'plan', prune: true });
    expect(again.changes).toBe(false);
    expect(notInGit(again)).toEqual([]);
    expect(again.plan!.diagnostics).toEqual([]);
    expect(notInGit(await w.run({ mode: 'plan' }))).toEqual([]);
    expect((await w.run({ mode: 'apply', prune: true })).status).toBe('in-sync');
    expect(writes(await w.journal(after))).toEqual([]);
  });
});
