import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import { type Manifest, type ManifestOf, manifestKey } from '../../src/model/manifest.js';
import type { LiveObject } from '../../src/model/provider.js';
import { normalizeCluster } from '../../src/providers/cluster-wire.js';
import { createProviderRegistry } from '../../src/providers/index.js';
import { normalizeWorkspace } from '../../src/providers/workspace.js';
import { type PlannerRegistry, plan } from '../../src/reconcile/planner.js';
import type { InventoryEntry } from '../../src/state/types.js';

// A provider's `inSync` lets the planner plan a noop without the three-way diff and without the
// last-applied manifest (a state store parses those on demand). The plan must be the one the
// full path gives: every action, id, order, reason and diagnostic.

/** The registry with every `inSync` taken out: the planner's slow path for every kind. */
function slowPath(): PlannerRegistry {
  const registry = createProviderRegistry() as unknown as Record<string, object>;
  return Object.fromEntries(
    Object.entries(registry).map(([kind, p]) => {
      const { inSync: _, ...rest } = p as { inSync?: unknown };
      return [kind, rest];
    }),
  ) as unknown as PlannerRegistry;
}

function both(
  desired: readonly Manifest[],
  live: readonly LiveObject[],
  last: readonly Manifest[],
  inventory: readonly InventoryEntry[] = [],
) {
  // each plan on its own copy: the planner freezes its inputs in place
  const copy = <T>(v: T): T => structuredClone(v);
  const run = (providers: PlannerRegistry) => {
    const lastApplied = new Map(copy(last).map((m) => [manifestKey(m), m]));
    return plan(copy(desired), copy(live), lastApplied, {
      providers,
      inventory: copy(inventory),
    });
  };
  return { fast: run(createProviderRegistry()), slow: run(slowPath()) };
}

const root = new URL('../fixtures/plans/', import.meta.url);
const read = (c: string, f: string) => {
  try {
    return readFileSync(fileURLToPath(new URL(`${c}/${f}`, root)), 'utf8');
  } catch {
    return undefined;
  }
};
const yamlDocs = (text = '') => parseAllDocuments(text).map((d) => d.toJS() as Manifest);
const cases = readdirSync(root, { withFileTypes: true })
  .filter((d) => d.isDirectory())
  .map((d) => d.name);

describe('the in-sync fast path', () => {
  it.each(cases)('plans the golden scenario %s as the full path does', (c) => {
    const { fast, slow } = both(
      yamlDocs(read(c, 'desired.yaml')),
      JSON.parse(read(c, 'live.json') ?? '[]') as LiveObject[],
      yamlDocs(read(c, 'last-applied.yaml')),
      JSON.parse(read(c, 'inventory.json') ?? '[]') as InventoryEntry[],
    );
    expect(JSON.stringify(fast)).toBe(JSON.stringify(slow));
  });

  it('plans workspaces and clusters as the full path does, whatever live and last applied hold', () => {
    const text = fc.constantFrom('a', 'b', '');
    const maybe = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined });
    const workspace = fc.record({
      name: fc.constantFrom('w1', 'w2', 'w3'),
      displayName: maybe(text),
      description: maybe(text),
      labels: maybe(fc.dictionary(fc.constantFrom('team', 'env'), text, { maxKeys: 2 })),
      annotations: maybe(fc.constant({ 'platctl.io/prune': 'disabled' })),
    });
    const cluster = fc.record({
      name: fc.constantFrom('c1', 'c2'),
      nodes: fc.integer({ min: 1, max: 3 }),
      version: fc.constantFrom('1.30', '1.3', '1.29'),
    });
    const asWorkspace = (w: {
      name: string;
      displayName?: string | undefined;
      description?: string | undefined;
      labels?: Record<string, string> | undefined;
      annotations?: Record<string, string> | undefined;
    }): Manifest =>
      JSON.parse(
        JSON.stringify({
          apiVersion: 'paas.envmgmt.io/v1',
          kind: 'Workspace',
          metadata: { project: 'p', ...w },
        }),
      ) as Manifest;
    const asCluster = (c: { name: string; nodes: number; version: string }): Manifest =>
      ({
        apiVersion: 'infra.k8smgmt.io/v3',
        kind: 'Cluster',
        metadata: { name: c.name, project: 'p' },
        spec: {
          type: 'Gke',
          cloudCredentials: 'gcp',
          blueprint: { name: 'default', version: 'latest' },
          config: {
            controlPlaneVersion: c.version,
            nodePools: [{ name: 'pool', size: c.nodes, nodeVersion: c.version }],
          },
        },
      }) as unknown as ManifestOf<'Cluster'>;
    const liveOf = (m: Manifest): LiveObject => {
      const key = manifestKey(m);
      const ref = { kind: m.kind, name: m.metadata.name, project: 'p' } as LiveObject['ref'];
      const item = { ...JSON.parse(JSON.stringify(m)), status: { phase: 'ready' } };
      // a platform that holds versions as numbers: 1.3 for "1.30" (the same version)
      const config = item.spec?.config;
      if (config && m.metadata.name === 'c2')
        config.controlPlaneVersion = Number(config.controlPlaneVersion);
      const body =
        m.kind === 'Workspace'
          ? normalizeWorkspace(item, 'paas.envmgmt.io')
          : normalizeCluster(item, 'infra.k8smgmt.io', m as ManifestOf<'Cluster'>);
      return { key, ref, body };
    };
    const manifests = fc.array(fc.oneof(workspace.map(asWorkspace), cluster.map(asCluster)), {
      maxLength: 4,
    });
    fc.assert(
      fc.property(manifests, manifests, manifests, (desired, onPlatform, last) => {
        const live = onPlatform.map(liveOf);
        const inventory = [...onPlatform, ...last].map(
          (m): InventoryEntry => ({
            key: manifestKey(m),
            kind: m.kind,
            ref: liveOf(m).ref,
            createdByPlatctl: true,
            protected: false,
          }),
        );
        const { fast, slow } = both(desired, live, last, inventory);
        expect(JSON.stringify(fast)).toBe(JSON.stringify(slow));
      }),
      { numRuns: 400 },
    );
  });

  it('does not look up the last-applied manifest of a resource found in sync', () => {
    const ws = (name: string, displayName?: string): Manifest => ({
      apiVersion: 'paas.envmgmt.io/v1',
      kind: 'Workspace',
      metadata: { name, project: 'p', ...(displayName ? { displayName } : {}) },
    });
    const liveOf = (m: Manifest): LiveObject => ({
      key: manifestKey(m),
      ref: { kind: 'Workspace', name: m.metadata.name, project: 'p' },
      body: normalizeWorkspace(JSON.parse(JSON.stringify(m)), 'paas.envmgmt.io'),
    });
    const asked: string[] = [];
    const last = [ws('a'), ws('b'), ws('c')];
    const lastApplied = new Map(last.map((m) => [manifestKey(m), m]));
    const counting = Object.assign(Object.create(lastApplied) as Map<string, Manifest>, {
      get: (key: string) => {
        asked.push(key);
        return lastApplied.get(key);
      },
      keys: () => lastApplied.keys(),
      has: (key: string) => lastApplied.has(key),
    });
    const p = plan([ws('a'), ws('b', 'changed')], [liveOf(ws('a')), liveOf(ws('b'))], counting, {
      providers: createProviderRegistry(),
    });
    expect(p.actions.map((a) => a.id)).toEqual(['Workspace/p/a#noop', 'Workspace/p/b#update']);
    // b differs (its diff reads what was last applied); c is neither declared nor managed
    expect(asked).toEqual(['Workspace/p/b']);
  });
});
