import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ResourceRef } from '../../src/model/action.js';
import { KINDS, type LoadedManifest } from '../../src/model/manifest.js';
import type { ObserveScope, ProviderPorts, ProviderRegistry } from '../../src/model/provider.js';
import { observeAll } from '../../src/reconcile/observe.js';
import type { InventoryEntry } from '../../src/state/types.js';
import { loaded } from '../providers/fixtures.js';
import { m } from './manifests.js';

// Observe asks each kind's provider for its whole scope at once, grouped by key, and makes the
// per-key items only to narrow down a read that failed: the scope must be the one the items gave.

/** The scope as the items gave it: each key's manifests, then its refs, keys as first met. */
function reference(desired: readonly LoadedManifest[], refs: readonly ResourceRef[]) {
  const byKey = new Map<string, { desired: LoadedManifest[]; refs: ResourceRef[] }>();
  const item = (key: string) => {
    const known = byKey.get(key);
    if (known) return known;
    const fresh = { desired: [] as LoadedManifest[], refs: [] as ResourceRef[] };
    byKey.set(key, fresh);
    return fresh;
  };
  for (const d of desired) item(d.key).desired.push(d);
  for (const r of refs) item(`Workspace/${r.project}/${r.name}`).refs.push(r);
  const items = [...byKey.values()];
  return { desired: items.flatMap((i) => i.desired), refs: items.flatMap((i) => i.refs) };
}

/** Workspaces observed by `read`, every other kind empty. */
function registry(read: (scope: ObserveScope) => Promise<never[]>): ProviderRegistry {
  const one = (kind: string) => ({
    kind,
    observe: kind === 'Workspace' ? read : async () => [],
    plan: () => [],
    execute: async () => ({}),
  });
  return Object.fromEntries(KINDS.map((k) => [k, one(k)])) as unknown as ProviderRegistry;
}

const names = fc.constantFrom('a', 'b', 'c', 'd', 'e');
const projects = fc.constantFrom('p', 'q');

describe('observe', () => {
  it('reads each kind once with the scope its items gave, in their order', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(projects, names), { maxLength: 6 }),
        fc.array(fc.tuple(projects, names), { maxLength: 6 }),
        async (declared, managed) => {
          const desired = declared.map(([p, n]) => loaded(m.workspace(p, n)));
          const inventory = managed.map(
            ([project, name]): InventoryEntry => ({
              key: `Workspace/${project}/${name}`,
              kind: 'Workspace',
              ref: { kind: 'Workspace', name, project },
              createdByPlatctl: true,
              protected: false,
            }),
          );
          const scopes: ObserveScope[] = [];
          await observeAll(
            registry(async (scope) => {
              scopes.push(scope);
              return [];
            }),
            desired,
            inventory,
            [],
            {} as ProviderPorts,
          );
          if (desired.length + inventory.length === 0) {
            expect(scopes).toEqual([]);
            return;
          }
          const want = reference(
            desired,
            inventory.map((e) => e.ref),
          );
          expect(scopes).toHaveLength(1);
          expect(scopes[0]!.desired).toEqual(want.desired);
          expect(scopes[0]!.inventory).toEqual(want.refs);
          // the projects as the former joined and filtered lists gave them
          const refs = inventory.map((e) => e.ref);
          const projectList = [
            ...new Set(
              [
                ...desired.map((d) => d.manifest.metadata.project),
                ...refs.map((r) => r.project),
              ].filter((p): p is string => p !== undefined),
            ),
          ].sort();
          expect(scopes[0]!.projects).toStrictEqual(projectList);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('narrows a failed read down to the resources it fails for', async () => {
    const desired = ['a', 'b', 'c', 'd'].map((n) => loaded(m.workspace('p', n)));
    const reads: string[][] = [];
    const result = await observeAll(
      registry(async (scope) => {
        const keys = scope.desired.map((d) => d.key);
        reads.push(keys);
        if (keys.includes('Workspace/p/c')) throw new Error('boom');
        return [];
      }),
      desired,
      [],
      [],
      {} as ProviderPorts,
    );
    expect([...result.unreadable.keys()]).toEqual(['Workspace/p/c']);
    // once whole, then by halves down to the one that fails: the whole set is not read twice
    expect(reads).toEqual([
      ['Workspace/p/a', 'Workspace/p/b', 'Workspace/p/c', 'Workspace/p/d'],
      ['Workspace/p/a', 'Workspace/p/b'],
      ['Workspace/p/c', 'Workspace/p/d'],
      ['Workspace/p/c'],
      ['Workspace/p/d'],
    ]);
  });
});
