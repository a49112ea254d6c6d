import fc from 'fast-check';
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

  // each file's projects in a set, where a key joined `project\0file` for each manifest: the
  // manifests asked about, and their order, must be those of the joined keys' map
  it('asks about the first manifest of each project and file, in their order', async () => {
    const item = fc.record({
      project: fc.constantFrom('p1', 'p2', 'p1\u0000x', 'x', undefined),
      // a path holds no NUL (the joined key's parts could not be told apart otherwise)
      file: fc.constantFrom('one.yaml', 'two.yaml', 'x', 'p1'),
    });
    await fc.assert(
      fc.asyncProperty(fc.array(item, { maxLength: 12 }), async (items) => {
        const manifests = items.map(({ project, file }, i) => {
          const m = workspace(`w${i}`, project as string, file, () => ({ file, line: i, col: 1 }));
          if (project === undefined) delete (m.manifest.metadata as { project?: string }).project;
          return m;
        });
        const firstPerFile = new Map<string, LoadedManifest>();
        for (const m of manifests) {
          const project = m.manifest.metadata.project;
          const at = `${project}\u0000${m.file}`;
          if (project !== undefined && !firstPerFile.has(at)) firstPerFile.set(at, m);
        }
        const asked: string[] = [];
        const projectId = async (name: string) => {
          asked.push(name);
          if (name !== 'p1') throw new UnknownProjectError(name, ['p1']);
          return 'id';
        };
        const diagnostics = await checkReferences(manifests, projectId);
        const expected = [...firstPerFile.values()];
        expect(asked).toEqual(expected.map((m) => m.manifest.metadata.project));
        expect(diagnostics.map((d) => d.key)).toEqual(
          expected.filter((m) => m.manifest.metadata.project !== 'p1').map((m) => m.key),
        );
      }),
      { numRuns: 2000 },
    );
  });
});
