import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { converge, type World, world } from './harness.js';

/**
 * What the engine sends, captured by the emulator's journal over real HTTP (issue 15): the
 * request shapes the spec documents, and nothing it does not.
 */
interface Entry {
  method: string;
  path: string;
  query: Record<string, string>;
  status: number;
}

let w: World;
beforeEach(async () => {
  w = await world();
});
afterEach(async () => {
  await w.close();
});

const entries = async (since = 0) => (await w.journal(since)) as unknown as Entry[];

describe('compute instance reads', () => {
  it('carry ?computeType= on every read, also those after power and delete waits', async () => {
    const results = await converge(w);
    expect(results.at(-1)?.status).toBe('in-sync');
    // l40s-dev is declared off: its apply ends with a stop and a wait on the power state
    const applied = await entries();
    const stops = applied.filter((e) => e.path.endsWith('/l40s-dev/action/stop'));
    expect(stops).toHaveLength(1);
    // drop both instances from git and prune them: each delete waits until it is gone
    const file = join(w.manifests, '20-ml-research.yaml');
    const docs = readFileSync(file, 'utf8').split(/^---$/m);
    writeFileSync(file, docs.filter((d) => !d.includes('kind: ComputeInstance')).join('---'));
    const before = await w.last();
    const pruned = await w.run({ mode: 'apply', prune: true });
    expect(pruned.status).toBe('applied');
    const deletes = (await entries(before)).filter((e) => e.method === 'DELETE');
    expect(deletes.map((e) => e.path.split('/').at(-1)).sort()).toEqual(['k8s-train', 'l40s-dev']);

    const reads = (await entries()).filter(
      (e) => e.method === 'GET' && /\/computeinstances\/[^/]+$/.test(e.path),
    );
    expect(reads.length).toBeGreaterThan(4);
    const typeOf = (path: string) => (path.endsWith('/k8s-train') ? 'k8s' : 'baremetal');
    for (const read of reads) {
      expect(read.query, `${read.method} ${read.path}`).toMatchObject({
        computeType: typeOf(read.path),
      });
    }
  });
});
