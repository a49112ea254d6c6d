import { describe, expect, it } from 'vitest';
import { UnknownProjectError } from '../../src/model/api-errors.js';
import type { LoadedManifest, Manifest } from '../../src/model/manifest.js';
import { checkReferences } from '../../src/reconcile/references.js';

/** A loaded workspace whose positions cost a re-parse of its file: asking for one throws here. */
function workspace(
  name: string,
  project: string,
  file: string,
  positionOf: LoadedManifest['positionOf'] = () => {
    throw new Error('a position was computed for a clean manifest');
  },
): LoadedManifest {
  return {
    manifest: {
      apiVersion: 'paas.envmgmt.io/v1',
      kind: 'Workspace',
      metadata: { name, project },
    } as Manifest,
    key: `Workspace/${project}/${name}`,
    file,
    get source(): never {
      throw new Error('a position was computed for a clean manifest');
    },
    positionOf,
  };
}

describe('platform references', () => {
  it('asks once per project and file, and computes no position while every project is known', async () => {
    const asked: string[] = [];
    const projectId = async (name: string) => {
      asked.push(name);
      return `id-${name}`;
    };
    const manifests = [
      workspace('a', 'p1', 'one.yaml'),
      workspace('b', 'p1', 'one.yaml'),
      workspace('c', 'p1', 'two.yaml'),
      workspace('d', 'p2', 'two.yaml'),
    ];
    expect(await checkReferences(manifests, projectId)).toEqual([]);
    expect(asked.sort()).toEqual(['p1', 'p1', 'p2']);
  });

  it('places an unknown project at its metadata.project', async () => {
    const m = workspace('a', 'nope', 'one.yaml', () => ({ file: 'one.yaml', line: 5, col: 12 }));
    const projectId = async (name: string): Promise<string> => {
      throw new UnknownProjectError(name, ['p1']);
    };
    const [d] = await checkReferences([m], projectId);
    expect(d).toMatchObject({ code: 'unknown-project', file: 'one.yaml', line: 5, col: 12 });
  });
});
