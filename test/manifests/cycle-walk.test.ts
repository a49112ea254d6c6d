import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cycles } from '../../src/manifests/cycles.js';
import { IMPLICIT_TARGETS, isGroup, needsOf } from '../../src/model/edges.js';
import {
  KINDS,
  type Kind,
  type LoadedManifest,
  type Manifest,
  manifestKey,
} from '../../src/model/manifest.js';

/**
 * The loader's cycle walk keeps to the manifests with a `dependsOn` when no manifest an implicit
 * edge points at has one (`cycles.ts`): it must find what the walk from every manifest finds,
 * the same diagnostics in the same order.
 */

const names = ['a', 'b', 'c'];
const projects = ['p', 'q'];
const workspaces = ['w', 'x'];

/** The spec fields the implicit edges read, for every kind that has one. */
function specOf(kind: Kind, name: string): unknown {
  switch (kind) {
    case 'ProjectAssignment':
      return { user: name };
    case 'BlueprintPublish':
      return { cluster: name, blueprint: { name: 'bp', version: name } };
    case 'BlueprintVersion':
      return { blueprint: 'bp', version: name, enabled: true };
    case 'Service':
      return { serviceType: 'custom' }; // a VPC: every Service is one to the edges
    default:
      return {};
  }
}

type Ref = { kind: Kind; name: string; project?: string; workspace?: string };

const ref: fc.Arbitrary<Ref> = fc.record(
  {
    kind: fc.constantFrom(...KINDS),
    name: fc.constantFrom(...names),
    project: fc.constantFrom(...projects),
    workspace: fc.constantFrom(...workspaces),
  },
  { requiredKeys: ['kind', 'name'] },
);

/** A manifest of any kind among a few names, projects and workspaces, so that edges meet. */
const manifest = (kinds: readonly Kind[], dependsOn: fc.Arbitrary<Ref[]>) =>
  fc
    .record({
      kind: fc.constantFrom(...kinds),
      name: fc.constantFrom(...names),
      project: fc.constantFrom(...projects),
      workspace: fc.constantFrom(...workspaces),
      dependsOn,
    })
    .map(({ kind, name, project, workspace, dependsOn: deps }) => {
      const metadata: Record<string, unknown> = { name };
      if (kind !== 'User') metadata.project = project;
      if (kind === 'ComputeInstance') metadata.workspace = workspace;
      if (deps.length > 0) metadata.dependsOn = deps;
      return { kind, metadata, spec: specOf(kind, name) } as unknown as Manifest;
    });

/** The manifests by key, the first of a key kept (as the checks across documents keep it). */
function byKey(manifests: readonly Manifest[]): Map<string, LoadedManifest> {
  const out = new Map<string, LoadedManifest>();
  manifests.forEach((m, i) => {
    const key = manifestKey(m);
    if (out.has(key)) return;
    const at = (path: readonly (string | number)[]) => ({
      file: 'set.yaml',
      line: i + 1,
      col: path.length + 1,
    });
    out.set(key, { manifest: m, key, file: 'set.yaml', source: at([]), positionOf: at });
  });
  return out;
}

const same = (manifests: readonly Manifest[]) => {
  const set = byKey(manifests);
  const found = cycles(set);
  expect(found).toEqual(cycles(set, true));
  return found;
};

describe('the cycle walk that keeps to manifests with a dependsOn', () => {
  it('finds what the walk from every manifest finds (any kinds, any dependsOn)', () => {
    fc.assert(
      fc.property(
        fc.array(manifest(KINDS, fc.array(ref, { maxLength: 2 })), { maxLength: 14 }),
        (ms) => {
          same(ms);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('finds it where no manifest an implicit edge points at has a dependsOn (the cut taken)', () => {
    const others = KINDS.filter((k) => !IMPLICIT_TARGETS.has(k));
    let found = 0;
    fc.assert(
      fc.property(
        fc.array(
          fc.oneof(
            manifest([...IMPLICIT_TARGETS], fc.constant([])),
            manifest(others, fc.array(ref, { maxLength: 3 })),
          ),
          { maxLength: 16 },
        ),
        (ms) => {
          if (same(ms).length > 0) found++;
        },
      ),
      { numRuns: 2000 },
    );
    expect(found).toBeGreaterThan(50); // the sets do hold cycles
  });

  it('a cycle of instances among thousands of manifests: the same errors, in order', () => {
    const ms: Manifest[] = [];
    for (let i = 0; i < 2000; i++) {
      const metadata = { name: `i${i}`, project: 'p', workspace: 'w' } as Manifest['metadata'];
      // i5 -> i6 -> i7 -> i5, and a chain beside it
      if (i >= 5 && i <= 7)
        metadata.dependsOn = [{ kind: 'ComputeInstance', name: `i${i === 7 ? 5 : i + 1}` }];
      if (i >= 100 && i < 200)
        metadata.dependsOn = [{ kind: 'ComputeInstance', name: `i${i + 1}` }];
      ms.push({ kind: 'ComputeInstance', metadata, spec: {} } as unknown as Manifest);
    }
    ms.push({ kind: 'Workspace', metadata: { name: 'w', project: 'p' }, spec: {} } as Manifest);
    const found = same(ms);
    expect(found.map((d) => [d.key, d.line, d.path])).toEqual([
      ['ComputeInstance/p/w/i5', 6, 'metadata.dependsOn[0]'],
      ['ComputeInstance/p/w/i6', 7, 'metadata.dependsOn[0]'],
      ['ComputeInstance/p/w/i7', 8, 'metadata.dependsOn[0]'],
    ]);
    expect(found[0]!.message).toMatch(
      /^dependency cycle: ComputeInstance p\/w\/i5 -> ComputeInstance p\/w\/i6 -> ComputeInstance p\/w\/i7 -> ComputeInstance p\/w\/i5; /,
    );
  });
});

describe('implicit edges are one edge long (what the cut rests on)', () => {
  const kindOf = (target: string): string =>
    isGroup(target)
      ? target.startsWith('@vpc/')
        ? 'Service'
        : 'BlueprintVersion'
      : target.slice(0, target.indexOf('/'));

  for (const kind of KINDS) {
    it(`${kind}: its implicit edges point at ${[...IMPLICIT_TARGETS].join(', ')} only`, () => {
      const m = {
        kind,
        metadata: { name: 'a', project: 'p', workspace: 'w' },
        spec: specOf(kind, 'a'),
      };
      const implicit = needsOf(m as Manifest).filter((n) => n.rule !== 'depends-on');
      for (const n of implicit) expect(IMPLICIT_TARGETS).toContain(kindOf(n.target));
      // and a kind they point at needs nothing of its own
      if (IMPLICIT_TARGETS.has(kind)) expect(implicit).toEqual([]);
    });
  }
});
