import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ResourceRef } from '../../src/model/action.js';
import { identityKey, KINDS, type LoadedManifest, manifestKey } from '../../src/model/manifest.js';
import type { ObserveScope } from '../../src/model/provider.js';
import { liveRef, wantedByProject } from '../../src/providers/support/scope.js';
import { nearKeys } from '../helpers/near-keys.js';

// A read of a kind takes a declared manifest's loaded key for the live object of its name, once
// checked part by part: the live object's key must be identityKey(ref) whatever key it is handed,
// and the names a read keeps must be those of the former set of names.
const part = fc.oneof(
  fc.constantFrom('', '/', 'a', 'a/b', 'p', 'w', 'ws-1', 'Workspace', 'ü', '😀'),
  fc.string({ maxLength: 6 }),
);
const ref = fc.record({
  kind: fc.constantFrom(...KINDS),
  name: part,
  project: fc.option(part, { nil: undefined }),
  workspace: fc.option(part, { nil: undefined }),
});

/** The ref as liveRef makes it: fields set only when given, in this order. */
function refOf(r: {
  kind: ResourceRef['kind'];
  name: string;
  project?: string;
  workspace?: string;
}) {
  const out: Record<string, unknown> = { kind: r.kind, name: r.name };
  if (r.project !== undefined) out.project = r.project;
  if (r.workspace !== undefined) out.workspace = r.workspace;
  return out as unknown as ResourceRef;
}

describe('liveRef with a known key', () => {
  it('gives identityKey(ref) whatever key it is handed: the ref’s, another’s, one near it, none', () => {
    fc.assert(
      fc.property(ref, ref, part, (x, y, extra) => {
        const key = identityKey(x);
        const known = [undefined, ...nearKeys(key, identityKey(y), extra)];
        for (const k of known) {
          const id = liveRef(x.kind, x.name, x.project, x.workspace, k);
          expect(id.key).toBe(key);
          expect(id.ref).toStrictEqual(refOf(x));
        }
      }),
      { numRuns: 2000 },
    );
  });
});

/** The names of each project as the former `wantedByProject` kept them: a set per project. */
function formerWanted(scope: ObserveScope): Map<string, Set<string>> {
  const wanted = new Map<string, Set<string>>();
  const add = (project: string | undefined, workspace: string | undefined, name: string) => {
    if (project === undefined) return;
    if (!wanted.has(project)) wanted.set(project, new Set());
    wanted.get(project)?.add(workspace === undefined ? name : `${workspace}/${name}`);
  };
  for (const d of scope.desired) {
    const m = d.manifest.metadata;
    add(m.project, m.workspace, m.name);
  }
  for (const r of scope.inventory) add(r.project, r.workspace, r.name);
  return wanted;
}

const small = fc.constantFrom('', 'a', 'b', 'a/b', 'p');

describe('wantedByProject', () => {
  it('keeps the former names per project, and gives each declared name its first manifest’s key', () => {
    const named = fc.record({
      name: small,
      project: fc.option(small, { nil: undefined }),
      workspace: fc.option(small, { nil: undefined }),
    });
    fc.assert(
      fc.property(
        fc.array(named, { maxLength: 12 }),
        fc.array(named, { maxLength: 12 }),
        (ds, rs) => {
          const desired = ds.map((metadata) => {
            const manifest = {
              kind: 'Workspace',
              metadata,
            } as unknown as LoadedManifest['manifest'];
            return { manifest, key: manifestKey(manifest) } as LoadedManifest;
          });
          const inventory = rs.map((r) => refOf({ kind: 'Workspace', ...r }));
          const scope = { desired, inventory, projects: [] } as unknown as ObserveScope;
          const wanted = wantedByProject(scope);
          const former = formerWanted(scope);
          expect([...wanted.keys()]).toStrictEqual([...former.keys()]);
          for (const [project, names] of former) {
            const now = wanted.get(project)!;
            for (const n of [...names, 'absent', '']) expect(now.has(n)).toBe(names.has(n));
            for (const n of names) {
              const first = desired.find((d) => {
                const m = d.manifest.metadata;
                const wantedName = m.workspace === undefined ? m.name : `${m.workspace}/${m.name}`;
                return m.project === project && wantedName === n;
              });
              expect(now.get(n)).toBe(first?.key);
            }
          }
        },
      ),
      { numRuns: 1000 },
    );
  });
});
