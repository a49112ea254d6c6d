import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { RevisionLoads } from '../../src/controller/engine/revision-loads.js';
import { loadAndValidate } from '../../src/manifests/index.js';

let dir: string;
beforeAll(async () => {
  dir = await mkdtemp(join(tmpdir(), 'platctl-revision-loads-'));
  // the loader's fast path (plain documents, comments, a leading marker) ...
  await writeFile(
    join(dir, 'a.yaml'),
    [
      '# workspaces',
      '---',
      'apiVersion: paas.envmgmt.io/v1',
      'kind: Workspace',
      'metadata:',
      '  name: ws-a',
      '  project: default',
      '---',
      '',
      '# the second',
      'apiVersion: paas.envmgmt.io/v1',
      'kind: Workspace',
      'metadata: {name: ws-b, project: platform}',
      '',
    ].join('\n'),
  );
  // ... and its slow path (an anchor sends the file through the `yaml` library)
  await writeFile(
    join(dir, 'b.yaml'),
    [
      'apiVersion: paas.envmgmt.io/v1',
      'kind: Workspace',
      'metadata: &m',
      '  name: ws-c',
      '  project: default',
      '  annotations:',
      '    platctl.io/prune: disabled',
      '',
    ].join('\n'),
  );
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('RevisionLoads', () => {
  it('keeps each manifest with the same key, file and positions as the loader gives', async () => {
    const paths = [dir, 'examples/manifests'];
    const fresh = await loadAndValidate({ paths });
    const kept = await new RevisionLoads(loadAndValidate).load({ paths });
    expect(fresh.diagnostics.filter((d) => d.severity === 'error')).toEqual([]);
    expect(kept.diagnostics).toEqual(fresh.diagnostics);
    expect(kept.manifests.length).toBe(fresh.manifests.length);
    expect(kept.manifests.length).toBeGreaterThan(3);
    for (const [i, k] of kept.manifests.entries()) {
      const f = fresh.manifests[i]!;
      expect(k.manifest).toEqual(f.manifest);
      expect(k.key).toBe(f.key);
      expect(k.file).toBe(f.file);
      expect(k.source).toEqual(f.source);
      for (const path of [['metadata', 'name'], ['metadata'], ['spec', 'nothing', 0], []]) {
        expect(k.positionOf(path)).toEqual(f.positionOf(path));
      }
    }
  });
});
