import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { type Manifest, PLATCTL_API_VERSION } from '../../src/model/manifest.js';
import type { LiveObject, Provider } from '../../src/model/provider.js';
import { blueprintPublishProvider } from '../../src/providers/blueprint-publish.js';
import { blueprintVersionProvider } from '../../src/providers/blueprint-version.js';
import { clusterProvider } from '../../src/providers/cluster.js';
import { clusterControllersProvider } from '../../src/providers/cluster-controllers.js';
import { normalizeCluster } from '../../src/providers/cluster-wire.js';
import {
  computeInstanceProvider,
  normalizeInstance,
} from '../../src/providers/compute-instance.js';
import { projectAssignmentProvider } from '../../src/providers/project-assignment.js';
import { normalizeService, serviceProvider } from '../../src/providers/service.js';
import { normalizeWorkspace, workspaceProvider } from '../../src/providers/workspace.js';

const name = fc.stringMatching(/^[a-z][a-z0-9-]{0,11}$/);
const variables = (withType: boolean) =>
  fc.uniqueArray(
    fc.record({
      name: fc.string({ minLength: 1, maxLength: 12 }),
      value: fc.string({ maxLength: 20 }),
      ...(withType ? { valueType: fc.constantFrom('text' as const, 'json' as const) } : {}),
    }),
    { selector: (v) => v.name, maxLength: 6 },
  );
const meta = fc.record({
  name,
  project: name,
  annotations: fc.option(fc.constant({ 'platctl.io/prune': 'disabled' }), { nil: undefined }),
  description: fc.option(fc.string({ maxLength: 20 }), { nil: undefined }),
});

/** What the platform would return for what was sent: ids, timestamps, status, reordered variables. */
function echo(m: Manifest, shuffle: boolean): Record<string, unknown> {
  const copy = JSON.parse(JSON.stringify(m));
  delete copy.metadata.annotations;
  delete copy.metadata.dependsOn;
  copy.metadata.id = 'uuid-1';
  copy.metadata.createdAt = '2026-01-01T00:00:00Z';
  copy.status = { status: 'deployed', output: { node_login_password: { value: '********' } } };
  if (shuffle && Array.isArray(copy.spec?.variables)) copy.spec.variables.reverse();
  return copy;
}

function deepFreeze<T>(v: T): T {
  if (v && typeof v === 'object') {
    Object.freeze(v);
    for (const x of Object.values(v)) deepFreeze(x);
  }
  return v;
}

function check<M extends Manifest>(
  provider: Provider<M['kind']>,
  arb: fc.Arbitrary<M>,
  normalize: (item: Record<string, unknown>) => Record<string, unknown>,
  status: string,
) {
  fc.assert(
    fc.property(arb, fc.boolean(), fc.boolean(), (desired, shuffle, withLastApplied) => {
      const live: LiveObject = {
        key: 'k',
        ref: { kind: desired.kind, name: desired.metadata.name },
        body: normalize(echo(desired, shuffle)),
        status,
        powerState: 'on',
      };
      const input = deepFreeze({
        key: 'k',
        desired,
        live,
        ...(withLastApplied ? { lastApplied: desired } : {}),
      });
      expect(provider.plan(input as never)).toEqual([]);
      expect(provider.diagnose?.(input as never) ?? []).toEqual([]);
    }),
    { numRuns: 200 },
  );
}

describe('identical desired and live plan nothing', () => {
  it('Workspace', () => {
    const arb = meta.map((metadata) =>
      JSON.parse(JSON.stringify({ apiVersion: 'paas.envmgmt.io/v1', kind: 'Workspace', metadata })),
    );
    check(workspaceProvider, arb, (i) => normalizeWorkspace(i, 'paas.envmgmt.io'), 'ok');
  });
  it('Service', () => {
    const arb = fc.tuple(meta, variables(false)).map(([metadata, vars]) =>
      JSON.parse(
        JSON.stringify({
          apiVersion: 'paas.envmgmt.io/v1',
          kind: 'Service',
          metadata,
          spec: {
            serviceProfile: { name: 'vpc', systemCatalog: true },
            serviceType: 'custom',
            variables: vars,
          },
        }),
      ),
    );
    check(serviceProvider, arb, (i) => normalizeService(i, 'paas.envmgmt.io'), 'deployed');
  });
  it('ComputeInstance', () => {
    const arb = fc
      .tuple(meta, name, fc.constantFrom('baremetal' as const, 'k8s' as const), variables(true))
      .map(([metadata, ws, computeType, vars]) =>
        JSON.parse(
          JSON.stringify({
            apiVersion: 'paas.envmgmt.io/v1',
            kind: 'ComputeInstance',
            metadata: { ...metadata, workspace: ws },
            spec: {
              computeType,
              computeProfile: { name: 'bmaas-h100' },
              variables: computeType === 'k8s' ? vars.map(({ valueType: _t, ...v }) => v) : vars,
            },
          }),
        ),
      );
    check(computeInstanceProvider, arb, (i) => normalizeInstance(i, 'paas.envmgmt.io'), 'success');
  });
  it('Cluster', () => {
    const arb = fc.tuple(meta, fc.jsonValue({ maxDepth: 3 })).map(([metadata, config]) =>
      JSON.parse(
        JSON.stringify({
          apiVersion: 'infra.k8smgmt.io/v3',
          kind: 'Cluster',
          metadata,
          spec: {
            type: 'Gke',
            cloudCredentials: 'c',
            blueprint: { name: 'b', version: 'v' },
            config,
          },
        }),
      ),
    );
    check(clusterProvider, arb, (i) => normalizeCluster(i, 'infra.k8smgmt.io'), 'ready');
  });
});

describe('readless kinds: git equal to what was last applied plans nothing', () => {
  it('ProjectAssignment, BlueprintPublish, BlueprintVersion, ClusterControllers', () => {
    const roles = fc.uniqueArray(fc.record({ id: name, name }), {
      selector: (r) => r.id,
      maxLength: 4,
    });
    fc.assert(
      fc.property(
        name,
        name,
        roles,
        fc.boolean(),
        fc.array(name, { maxLength: 3 }),
        (n, p, rs, enabled, addons) => {
          const metadata = { name: n, project: p };
          const cases: [Provider, Manifest][] = [
            [
              projectAssignmentProvider as Provider,
              {
                apiVersion: PLATCTL_API_VERSION,
                kind: 'ProjectAssignment',
                metadata,
                spec: { user: `${n}@x`, roles: rs },
              },
            ],
            [
              blueprintPublishProvider as Provider,
              {
                apiVersion: PLATCTL_API_VERSION,
                kind: 'BlueprintPublish',
                metadata,
                spec: { cluster: n, blueprint: { name: p, version: n }, addons },
              },
            ],
            [
              blueprintVersionProvider as Provider,
              {
                apiVersion: PLATCTL_API_VERSION,
                kind: 'BlueprintVersion',
                metadata,
                spec: { blueprint: p, version: n, enabled },
              },
            ],
            [
              clusterControllersProvider as Provider,
              {
                apiVersion: PLATCTL_API_VERSION,
                kind: 'ClusterControllers',
                metadata,
                spec: { capiVersion: n, capgVersion: p },
              },
            ],
          ];
          for (const [provider, m] of cases) {
            const input = deepFreeze({
              key: 'k',
              desired: m,
              lastApplied: JSON.parse(JSON.stringify(m)),
            });
            expect(provider.plan(input as never)).toEqual([]);
          }
        },
      ),
      { numRuns: 100 },
    );
  });
});
